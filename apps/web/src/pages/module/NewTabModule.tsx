import type { UserModule } from '@aiplatform/contracts';
import { ExportOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openModuleInNewTab } from '../../components/layout/open-module-tab';
import { moduleIcon } from '../../components/layout/module-icons';

/** A module that only opens in its own tab (it may refuse to be framed): one button to open it. */
export function NewTabModule({ module }: { module: UserModule }) {
  const { t } = useTranslation();
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    try {
      await openModuleInNewTab(module.name);
    } finally {
      setOpening(false);
    }
  };
  return (
    <Result
      icon={
        <span className="module-newtab-icon">{moduleIcon(module.menu_icon, module.display_name, module.name)}</span>
      }
      title={module.display_name}
      subTitle={t('pages:module.newTabHint')}
      extra={
        <Button
          type="primary"
          icon={<ExportOutlined />}
          loading={opening}
          onClick={() => void open()}
          data-testid="module-open-new-tab"
        >
          {t('pages:module.openInNewTab')}
        </Button>
      }
      data-testid="module-new-tab"
    />
  );
}
