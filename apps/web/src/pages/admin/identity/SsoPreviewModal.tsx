import type { SsoPreview } from '@aiplatform/contracts';
import { Alert, Descriptions, Modal, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { claimRows, isRefused, outcomePhrases } from './sso-preview-format';

interface Props {
  preview: SsoPreview | null;
  onClose: () => void;
}

/** A test sign-in's result: what a sign-in would do, who the provider says this is, and every claim it sent. */
export function SsoPreviewModal({ preview, onClose }: Props) {
  const { t } = useTranslation();
  const none = t('admin:identity.preview.none');
  return (
    <Modal
      open={preview !== null}
      title={t('admin:identity.preview.titleShort')}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
    >
      {preview && (
        <div data-testid="sso-preview">
          <Typography.Paragraph type="secondary">{t('admin:identity.preview.hint')}</Typography.Paragraph>
          <Alert
            type={isRefused(preview.outcome) ? 'warning' : 'info'}
            showIcon
            message={t('admin:identity.preview.outcomeTitle')}
            description={
              <div data-testid="sso-preview-outcome">
                {outcomePhrases(preview.outcome).map((p) => (
                  <div key={p.key}>{t(p.key, p.values)}</div>
                ))}
              </div>
            }
            style={{ marginBottom: 16 }}
          />
          <Descriptions
            title={t('admin:identity.preview.profileTitle')}
            column={1}
            size="small"
            bordered
            data-testid="sso-preview-profile"
            items={[
              { key: 'subject', label: t('admin:identity.preview.subject'), children: preview.subject },
              { key: 'email', label: t('admin:identity.preview.email'), children: preview.email ?? none },
              {
                key: 'verified',
                label: t('admin:identity.preview.emailVerified'),
                children: t(preview.email_verified ? 'admin:identity.preview.yes' : 'admin:identity.preview.no'),
              },
              { key: 'username', label: t('admin:identity.preview.username'), children: preview.username ?? none },
              { key: 'name', label: t('admin:identity.preview.name'), children: preview.name ?? none },
              {
                key: 'groups',
                label: t('admin:identity.preview.groups'),
                children:
                  preview.groups.length > 0 ? (
                    <span data-testid="sso-preview-groups">
                      {preview.groups.map((g) => (
                        <Tag key={g}>{g}</Tag>
                      ))}
                    </span>
                  ) : (
                    none
                  ),
              },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('admin:identity.preview.claimsTitle')}
          </Typography.Title>
          <Table
            rowKey="name"
            size="small"
            pagination={false}
            dataSource={claimRows(preview.claims)}
            columns={[
              { title: t('admin:identity.preview.claimName'), dataIndex: 'name', width: 200 },
              {
                title: t('admin:identity.preview.claimValue'),
                dataIndex: 'value',
                render: (value: string) => <span style={{ wordBreak: 'break-all' }}>{value}</span>,
              },
            ]}
            data-testid="sso-preview-claims"
          />
        </div>
      )}
    </Modal>
  );
}
