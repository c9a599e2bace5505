import type { Language } from '@aiplatform/contracts';
import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';

/** With two languages, the switch offers the other one; the detector caches the choice. */
const OTHER: Record<Language, Language> = { 'zh-CN': 'en-US', 'en-US': 'zh-CN' };
const NAME_KEY: Record<Language, string> = {
  'zh-CN': 'common:language.name.zh-CN',
  'en-US': 'common:language.name.en-US',
};

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const target = OTHER[currentLanguage()];
  return (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      onClick={() => void i18n.changeLanguage(target)}
      aria-label={t('common:language.switchTo', { language: t(NAME_KEY[target]) })}
      title={t('common:language.switchTo', { language: t(NAME_KEY[target]) })}
      lang={target}
      data-testid="language-switch"
      data-language={currentLanguage()}
    >
      {t(NAME_KEY[target])}
    </Button>
  );
}
