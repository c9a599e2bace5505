import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../api/notify';
import { reportError } from '../../../components/common/report-error';

/** Downloads a CSV of what the current filters select. */
export function ExportCsvButton({ download }: { download: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await download();
      toast('success', t('admin:export.done'));
    } catch (error) {
      reportError(error, 'admin:export.failed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={run} data-testid="export-csv">
      {t('admin:export.button')}
    </Button>
  );
}
