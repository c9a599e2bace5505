import type { CreatedApiKey } from '@aiplatform/contracts';
import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The new key's secret, shown this once: the server keeps only its hash. */
export function ApiKeySecretModal({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={!!created}
      title={t('profile:apiKeys.secretTitle', { name: created?.key.name ?? '' })}
      onOk={onClose}
      onCancel={onClose}
      okText={t('profile:apiKeys.secretDone')}
      cancelButtonProps={{ style: { display: 'none' } }}
      // Closing by a stray click outside would lose the secret for good.
      maskClosable={false}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'api-key-secret-done' }}
      data-testid="api-key-secret-modal"
    >
      <Alert type="warning" showIcon title={t('profile:apiKeys.secretOnce')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph
        code
        copyable={{
          text: created?.secret ?? '',
          tooltips: [t('profile:apiKeys.copy'), t('profile:apiKeys.copied')],
        }}
        style={{ wordBreak: 'break-all' }}
        data-testid="api-key-secret"
      >
        {created?.secret}
      </Typography.Paragraph>
    </Modal>
  );
}
