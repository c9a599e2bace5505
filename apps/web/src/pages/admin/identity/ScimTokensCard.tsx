import type { CreatedScimToken, ScimToken } from '@aiplatform/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Modal, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatDateTime } from '../../../components/common/format';
import { DangerButton } from '../shared/DangerButton';
import { QueryTable } from '../shared/QueryTable';
import { useAdminMutation } from '../shared/use-admin-mutation';

/**
 * Bearer tokens for the directory's provisioning (SCIM 2.0 at `/scim/v2`): made here, shown
 * once, stored only as a hash, revocable.
 */
export function ScimTokensCard() {
  const { t, i18n } = useTranslation();
  const [naming, setNaming] = useState(false);
  const [created, setCreated] = useState<CreatedScimToken | null>(null);
  const [form] = Form.useForm<{ name: string }>();
  const list = useQuery({ queryKey: adminKeys.scimTokens, queryFn: () => call('listScimTokens') });
  const create = useAdminMutation({
    mutationFn: (name: string) => call('createScimToken', { body: { name } }),
    invalidates: [adminKeys.scimTokens],
    successText: (token) => t('admin:identity.scim.createdDone', { name: token.name }),
    failureKey: 'admin:identity.scim.createFailed',
    onSuccess: (token) => {
      setNaming(false);
      setCreated(token);
    },
  });
  const revoke = useAdminMutation({
    mutationFn: (token: ScimToken) => call('revokeScimToken', { params: { id: token.id } }),
    invalidates: [adminKeys.scimTokens],
    successText: (_r, token) => t('admin:identity.scim.revokedDone', { name: token.name }),
    failureKey: 'admin:identity.scim.revokeFailed',
  });
  const when = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—');

  const columns: ColumnsType<ScimToken> = [
    { title: t('admin:identity.scim.name'), dataIndex: 'name' },
    { title: t('admin:identity.scim.createdAt'), dataIndex: 'created_at', render: when, responsive: ['md'] },
    { title: t('admin:identity.scim.lastUsed'), dataIndex: 'last_used_at', render: when },
    {
      title: t('admin:identity.actions'),
      key: 'actions',
      render: (_: unknown, token) =>
        token.revoked_at ? (
          <Tag>{t('admin:identity.scim.revoked')}</Tag>
        ) : (
          <DangerButton
            title={t('admin:identity.scim.revokeConfirm', { name: token.name })}
            hint={t('admin:identity.scim.revokeHint')}
            label={t('admin:identity.scim.revoke')}
            onConfirm={() => revoke.mutateAsync(token)}
            testId={`scim-revoke-${token.id}`}
          />
        ),
    },
  ];

  return (
    <Card
      title={t('admin:identity.scim.title')}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setNaming(true)} data-testid="scim-create-button">
          {t('admin:identity.scim.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('admin:identity.scim.intro')}{' '}
        <Typography.Text code copyable>{`${window.location.origin}/scim/v2`}</Typography.Text>
      </Typography.Paragraph>
      <QueryTable list={list} columns={columns} emptyText={t('admin:identity.scim.empty')} testId="scim" />
      <Modal
        open={naming}
        title={t('admin:identity.scim.createTitle')}
        okText={t('admin:identity.scim.create')}
        cancelText={t('common:cancel')}
        confirmLoading={create.isPending}
        onOk={() => form.submit()}
        onCancel={() => setNaming(false)}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'scim-create-submit' }}
      >
        <Form form={form} layout="vertical" preserve={false} onFinish={(v) => create.mutate(v.name.trim())}>
          <Form.Item
            name="name"
            label={t('admin:identity.scim.name')}
            rules={[{ required: true, whitespace: true, max: 100, message: t('validation:scimTokenName.required') }]}
          >
            <Input maxLength={100} placeholder={t('admin:identity.scim.namePlaceholder')} data-testid="scim-name" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={!!created}
        title={t('admin:identity.scim.shownOnceTitle')}
        onOk={() => setCreated(null)}
        onCancel={() => setCreated(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
        okText={t('admin:identity.scim.copiedIt')}
      >
        <Alert type="warning" showIcon message={t('admin:identity.scim.shownOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ text: created?.token ?? '' }} code data-testid="scim-token-value">
          {created?.token}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
