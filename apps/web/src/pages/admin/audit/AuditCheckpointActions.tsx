import type { AuditCheckpoint, AuditVerifyResult } from '@aiplatform/contracts';
import { FileProtectOutlined, SafetyOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { saveBlob } from '../../../api/admin-files';
import { toast } from '../../../api/notify';
import { reportError } from '../../../components/common/report-error';
import { useAdminAccess } from '../shared/use-admin-access';
import { checkpointFileContent, checkpointFileName, readCheckpointFile } from './checkpoint-file';

interface AuditCheckpointActionsProps {
  onResult: (result: AuditVerifyResult) => void;
  /** A checkpoint file was downloaded; `count` entries are covered by it. */
  onSaved: (count: number) => void;
}

/**
 * Signs a checkpoint of the chain head and downloads it, and checks the chain against a
 * checkpoint file kept outside the server (the proof when stored ones were removed too).
 */
export function AuditCheckpointActions({ onResult, onSaved }: AuditCheckpointActionsProps) {
  const { t } = useTranslation();
  const access = useAdminAccess();
  const create = useMutation({
    mutationFn: () => call('createAuditCheckpoint'),
    onSuccess: (c) => {
      saveBlob(new Blob([checkpointFileContent(c)], { type: 'application/json' }), checkpointFileName(c));
      onSaved(c.count);
    },
    onError: (error) => reportError(error, 'admin:audit.checkpointFailed'),
  });
  const check = useMutation({
    mutationFn: (body: AuditCheckpoint) => call('verifyAuditCheckpoint', { body }),
    onSuccess: onResult,
    onError: (error) => reportError(error, 'admin:audit.checkpointCheckFailed'),
  });
  const checkFile = async (file: File) => {
    const saved = readCheckpointFile(await file.text());
    // The server checks the fields and the signature; only a file that is no JSON object stops here.
    if (saved) check.mutate(saved as unknown as AuditCheckpoint);
    else toast('error', t('admin:audit.checkpointUnreadable'));
  };
  return (
    <>
      {access.can('audit.checkpoint') && (
        <Button
          icon={<FileProtectOutlined />}
          loading={create.isPending}
          onClick={() => create.mutate()}
          data-testid="audit-checkpoint-create"
        >
          {t('admin:audit.checkpointCreate')}
        </Button>
      )}
      <Upload
        accept=".json,application/json"
        showUploadList={false}
        beforeUpload={(file) => {
          void checkFile(file);
          return false;
        }}
      >
        <Button icon={<SafetyOutlined />} loading={check.isPending} data-testid="audit-checkpoint-check">
          {t('admin:audit.checkpointCheck')}
        </Button>
      </Upload>
    </>
  );
}
