import type { AuditVerifyResult } from '@aiplatform/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../components/common/format';

/** The chain verdict: intact, or what does not fit; and the checkpoint it was compared with. */
export function VerifyResultAlert({ result, onClose }: { result: AuditVerifyResult; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const checked = formatNumber(result.checked, i18n.language);
  const checkpoint = result.checkpoint
    ? t('admin:audit.comparedWith', {
        time: formatDateTime(result.checkpoint.created_at, i18n.language),
        count: formatNumber(result.checkpoint.count, i18n.language),
      })
    : t('admin:audit.noCheckpoint');
  const title = result.valid
    ? t('admin:audit.chainValid', { checked })
    : result.broken_at !== null
      ? t('admin:audit.chainBroken', { row: result.broken_at, checked })
      : t('admin:audit.chainNotIntact', { checked });
  return (
    <Alert
      type={result.valid ? 'success' : 'error'}
      showIcon
      closable={{ onClose }}
      style={{ marginBottom: 16 }}
      title={title}
      description={
        <>
          {result.problem && <div>{t(`admin:audit.problems.${result.problem}`)}</div>}
          <div data-testid="audit-checkpoint-compared">{checkpoint}</div>
        </>
      }
      data-testid={result.valid ? 'audit-chain-valid' : 'audit-chain-broken'}
    />
  );
}
