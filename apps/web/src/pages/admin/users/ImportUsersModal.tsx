import { USER_CSV_IMPORT_COLUMNS, USER_CSV_IMPORT_MAX_ROWS, type UserImportReport } from '@aiplatform/contracts';
import { InboxOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Modal, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadImportTemplate, importUsersCsv } from '../../../api/admin-files';
import { toast } from '../../../api/notify';
import { adminKeys } from '../../../api/query-keys';
import { reportError } from '../../../components/common/report-error';
import { useOverlaySize } from '../shared/use-overlay-size';
import { ImportReportView } from './ImportReportView';

/** Choose a file → the server checks every row (dry run) → import only a file without errors. */
function ImportSteps({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<UserImportReport | null>(null);
  const check = useMutation({
    mutationFn: (chosen: File) => importUsersCsv(chosen, true),
    onSuccess: setReport,
    onError: (error) => reportError(error, 'admin:import.checkFailed'),
  });
  const run = useMutation({
    mutationFn: (chosen: File) => importUsersCsv(chosen, false),
    onSuccess: async (result) => {
      setReport(result);
      if (result.errors.length > 0) return;
      toast('success', t('admin:import.done', { count: result.created }));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.users }),
        queryClient.invalidateQueries({ queryKey: adminKeys.groups }),
      ]);
      onClose();
    },
    onError: (error) => reportError(error, 'admin:import.failed'),
  });
  const ready = file !== null && report !== null && report.errors.length === 0 && report.total > 0;

  return (
    <>
      <Typography.Paragraph type="secondary">
        {t('admin:import.hint', { max: USER_CSV_IMPORT_MAX_ROWS })}
        <br />
        <Typography.Text code copyable>
          {USER_CSV_IMPORT_COLUMNS.join(',')}
        </Typography.Text>
        <br />
        {t('admin:import.creditsHint')}
      </Typography.Paragraph>
      <Upload.Dragger
        accept=".csv,text/csv"
        maxCount={1}
        fileList={[]}
        beforeUpload={(chosen) => {
          setFile(chosen);
          setReport(null);
          check.mutate(chosen);
          // The file is sent by the import calls, not by the upload component.
          return false;
        }}
        disabled={check.isPending || run.isPending}
        data-testid="import-file"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{file ? file.name : t('admin:import.choose')}</p>
        <p className="ant-upload-hint">{check.isPending ? t('admin:import.checking') : t('admin:import.chooseHint')}</p>
      </Upload.Dragger>
      <div style={{ marginTop: 16 }}>{report && <ImportReportView report={report} />}</div>
      <Flex justify="space-between" wrap gap={8} style={{ marginTop: 16 }}>
        <Button onClick={downloadImportTemplate} data-testid="import-template">
          {t('admin:import.template')}
        </Button>
        <Flex gap={8}>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button
            type="primary"
            disabled={!ready}
            loading={run.isPending}
            onClick={() => file && run.mutate(file)}
            data-testid="import-submit"
          >
            {report && ready ? t('admin:import.submitCount', { count: report.valid }) : t('admin:import.submit')}
          </Button>
        </Flex>
      </Flex>
    </>
  );
}

export function ImportUsersModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(640);
  return (
    <Modal
      open={open}
      title={t('admin:import.title')}
      footer={null}
      onCancel={onClose}
      width={modalWidth}
      destroyOnHidden
      data-testid="import-modal"
    >
      <ImportSteps onClose={onClose} />
    </Modal>
  );
}
