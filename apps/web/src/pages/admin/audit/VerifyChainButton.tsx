import type { AuditVerifyResult } from '@aiplatform/contracts';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { reportError } from '../../../components/common/report-error';

/** Recomputes the audit hash chain on the server; the page shows the verdict. */
export function VerifyChainButton({ onResult }: { onResult: (result: AuditVerifyResult) => void }) {
  const { t } = useTranslation();
  const verify = useMutation({
    mutationFn: () => call('verifyAuditLogs'),
    onSuccess: onResult,
    onError: (error) => reportError(error, 'admin:audit.verifyFailed'),
  });
  return (
    <Button
      icon={<SafetyCertificateOutlined />}
      loading={verify.isPending}
      onClick={() => verify.mutate()}
      data-testid="audit-verify"
    >
      {t('admin:audit.verify')}
    </Button>
  );
}
