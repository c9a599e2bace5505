import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Select, Space, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { usePublicConfig } from '../../api/use-public-config';
import { useCopyText } from '../chat/use-copy-text';
import { absoluteShareUrl, expiryAt, SHARE_EXPIRIES, type ShareExpiry } from './share-links';

interface ShareDialogProps {
  conversationId: string;
  open: boolean;
  onClose: () => void;
}

const EXPIRY_LABELS: Record<ShareExpiry, string> = {
  never: 'share:dialog.expiryNever',
  day: 'share:dialog.expiryDay',
  week: 'share:dialog.expiryWeek',
  month: 'share:dialog.expiryMonth',
};

/**
 * Makes a share link of the open conversation: its expiry, and whether visitors may read it
 * (offered only while the site allows public links). The link is shown once, with a copy button.
 */
export function ShareDialog({ conversationId, open, onClose }: ShareDialogProps) {
  const { t } = useTranslation();
  const { config } = usePublicConfig();
  const allowPublic = config.sharing.public_links;
  const [expiry, setExpiry] = useState<ShareExpiry>('never');
  const [isPublic, setPublic] = useState(false);
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const { copied, copy } = useCopyText('content');

  const close = () => {
    setUrl(null);
    setPublic(false);
    setExpiry('never');
    onClose();
  };

  const create = async () => {
    setBusy(true);
    try {
      const made = await call('createShare', {
        params: { id: conversationId },
        body: { expires_at: expiryAt(expiry, new Date()), public: allowPublic && isPublic },
      });
      setUrl(absoluteShareUrl(made.url, window.location.origin));
    } catch {
      // The client has shown the reason.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('share:dialog.title')}
      onCancel={close}
      destroyOnHidden
      footer={
        url ? (
          <Button type="primary" onClick={close} data-testid="share-done">
            {t('share:dialog.done')}
          </Button>
        ) : (
          <Button type="primary" loading={busy} onClick={() => void create()} data-testid="share-create">
            {t('share:dialog.create')}
          </Button>
        )
      }
    >
      <p className="share-dialog-intro">{t('share:dialog.intro')}</p>
      {url ? (
        <Form layout="vertical">
          <Form.Item label={t('share:dialog.link')} htmlFor="share-link-url">
            <Space.Compact style={{ width: '100%' }}>
              <Input id="share-link-url" readOnly value={url} data-testid="share-link-url" />
              <Button
                icon={copied ? <CheckOutlined /> : <CopyOutlined />}
                onClick={() => void copy(url)}
                aria-label={t('share:dialog.copy')}
                data-testid="share-copy"
              >
                {t('share:dialog.copy')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Alert type="info" showIcon title={t('share:dialog.onceNote')} />
        </Form>
      ) : (
        <Form layout="vertical">
          <Form.Item label={t('share:dialog.expiry')} htmlFor="share-expiry">
            <Select<ShareExpiry>
              id="share-expiry"
              value={expiry}
              onChange={setExpiry}
              options={SHARE_EXPIRIES.map((value) => ({ value, label: t(EXPIRY_LABELS[value]) }))}
              data-testid="share-expiry"
            />
          </Form.Item>
          {allowPublic && (
            <Form.Item extra={t('share:dialog.publicHint')}>
              <Space>
                <Switch
                  id="share-public"
                  checked={isPublic}
                  onChange={setPublic}
                  aria-label={t('share:dialog.public')}
                  data-testid="share-public"
                />
                <label htmlFor="share-public">{t('share:dialog.public')}</label>
              </Space>
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}
