import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** An honest placeholder for an area whose features are not available yet. */
export function PreparingResult({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Result
      icon={<ToolOutlined />}
      title={title}
      subTitle={t('pages:preparing.description')}
      data-testid="preparing-result"
    />
  );
}
