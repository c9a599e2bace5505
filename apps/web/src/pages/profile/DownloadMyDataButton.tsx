import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { downloadMyData } from '../../api/personal-data';
import { reportError } from '../../components/common/report-error';

/** Downloads everything of the signed-in person as a ZIP (profile, conversations, ledger, files). */
export function DownloadMyDataButton() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await downloadMyData();
      toast('success', t('profile:dataExport.done'));
    } catch (error) {
      reportError(error, 'profile:dataExport.failed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={run} data-testid="download-my-data">
      {t('profile:dataExport.button')}
    </Button>
  );
}
