import type { AuditVerifyResult } from '@aiplatform/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../components/common/format';

/** The chain verdict: intact, or the first row that does not match. */
export function VerifyResultAlert({ result, onClose }: { result: AuditVerifyResult; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const checked = formatNumber(result.checked, i18n.language);
  return (
    <Alert
      type={result.valid ? 'success' : 'error'}
      showIcon
      closable={{ onClose }}
      style={{ marginBottom: 16 }}
      title={
        result.valid
          ? t('admin:audit.chainValid', { checked })
          : t('admin:audit.chainBroken', { row: result.broken_at ?? '?', checked })
      }
      description={result.valid ? undefined : t('admin:audit.chainBrokenHint')}
      data-testid={result.valid ? 'audit-chain-valid' : 'audit-chain-broken'}
    />
  );
}
