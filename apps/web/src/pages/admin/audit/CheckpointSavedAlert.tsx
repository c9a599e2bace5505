import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What to do with a downloaded checkpoint. It stays on the page until closed rather than being a
 * toast: the instruction is too long to read in a toast's few seconds, and a toast this wide would
 * open over the page's action buttons and stay there while the pointer rests on it.
 */
export function CheckpointSavedAlert({ count, onClose }: { count: number; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="success"
      showIcon
      closable={{ onClose }}
      style={{ marginBottom: 16 }}
      title={t('admin:audit.checkpointSaved', { count })}
      data-testid="audit-checkpoint-saved"
    />
  );
}
