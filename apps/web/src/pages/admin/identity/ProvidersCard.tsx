import type { IdentityProvider } from '@aiplatform/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Modal, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { DangerButton } from '../shared/DangerButton';
import { QueryTable } from '../shared/QueryTable';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useOverlayTarget } from '../shared/use-overlay-target';
import { LdapPreviewModal } from './LdapPreviewModal';
import { ProviderFormModal } from './ProviderFormModal';
import { SsoPreviewModal } from './SsoPreviewModal';
import { useSsoPreview } from './use-sso-preview';

/** The connected identity providers: switch on and off, test the connection, test a sign-in, edit, remove. */
export function ProvidersCard() {
  const { t } = useTranslation();
  const form = useOverlayTarget<IdentityProvider | null>();
  const ldapPreview = useOverlayTarget<IdentityProvider>();
  const preview = useSsoPreview();
  const list = useQuery({ queryKey: adminKeys.identityProviders, queryFn: () => call('listIdentityProviders') });
  const toggle = useAdminMutation({
    mutationFn: (p: IdentityProvider) =>
      call('updateIdentityProvider', { params: { id: p.id }, body: { type: p.type, enabled: !p.enabled } }),
    invalidates: [adminKeys.identityProviders],
    successText: (saved) =>
      t(saved.enabled ? 'admin:identity.enabledDone' : 'admin:identity.disabledDone', { name: saved.name }),
    failureKey: 'admin:identity.updateFailed',
  });
  const remove = useAdminMutation({
    mutationFn: (p: IdentityProvider) => call('deleteIdentityProvider', { params: { id: p.id } }),
    invalidates: [adminKeys.identityProviders],
    successText: (_r, p) => t('admin:identity.deletedDone', { name: p.name }),
    failureKey: 'admin:identity.deleteFailed',
  });
  const test = useAdminMutation({
    mutationFn: (p: IdentityProvider) => call('testIdentityProvider', { params: { id: p.id } }),
    invalidates: [],
    successText: (result) => (result.ok ? t('admin:identity.test.ok') : t('admin:identity.test.failed')),
    failureKey: 'admin:identity.test.failed',
    onSuccess: (result, p) =>
      Modal[result.ok ? 'success' : 'error']({
        title: t(result.ok ? 'admin:identity.test.okTitle' : 'admin:identity.test.failedTitle', { name: p.name }),
        content: (
          <>
            <Typography.Paragraph data-testid="provider-test-message">{result.message}</Typography.Paragraph>
            {Object.keys(result.details).length > 0 && (
              <pre style={{ whiteSpace: 'pre-wrap', fontSize: 12 }}>{JSON.stringify(result.details, null, 2)}</pre>
            )}
          </>
        ),
      }),
  });

  const columns: ColumnsType<IdentityProvider> = [
    {
      title: t('admin:identity.form.name'),
      dataIndex: 'name',
      render: (name: string, p) => <span data-testid={`provider-row-${p.slug}`}>{name}</span>,
    },
    { title: t('admin:identity.form.slug'), dataIndex: 'slug', responsive: ['md'] },
    {
      title: t('admin:identity.form.type'),
      dataIndex: 'type',
      render: (type: IdentityProvider['type']) => <Tag>{t(`admin:identity.types.${type}`)}</Tag>,
    },
    {
      title: t('admin:identity.form.enabled'),
      dataIndex: 'enabled',
      render: (_: boolean, p) => (
        <Switch
          checked={p.enabled}
          loading={toggle.isPending && toggle.variables?.id === p.id}
          onChange={() => toggle.mutate(p)}
          aria-label={t('admin:identity.toggleLabel', { name: p.name })}
          data-testid={`provider-toggle-${p.slug}`}
        />
      ),
    },
    {
      title: t('admin:identity.actions'),
      key: 'actions',
      render: (_: unknown, p) => (
        <Space wrap>
          <Button
            size="small"
            loading={test.isPending && test.variables?.id === p.id}
            onClick={() => test.mutate(p)}
            data-testid={`provider-test-${p.slug}`}
          >
            {t('admin:identity.test.button')}
          </Button>
          <Button
            size="small"
            loading={preview.start.isPending && preview.start.variables?.id === p.id}
            onClick={() => (p.type === 'ldap' ? ldapPreview.show(p) : preview.start.mutate(p))}
            data-testid={`provider-preview-${p.slug}`}
          >
            {t('admin:identity.preview.button')}
          </Button>
          <Button size="small" onClick={() => form.show(p)} data-testid={`provider-edit-${p.slug}`}>
            {t('admin:actions.edit')}
          </Button>
          <DangerButton
            title={t('admin:identity.deleteConfirm', { name: p.name })}
            hint={t('admin:identity.deleteHint')}
            label={t('admin:actions.delete')}
            onConfirm={() => remove.mutateAsync(p)}
            testId={`provider-delete-${p.slug}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('admin:identity.providers.title')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => form.show(null)}
          data-testid="provider-create-button"
        >
          {t('admin:identity.add')}
        </Button>
      }
    >
      <QueryTable list={list} columns={columns} emptyText={t('admin:identity.providers.empty')} testId="providers" />
      <ProviderFormModal
        provider={form.target ?? null}
        open={form.open}
        onClose={form.hide}
        afterClose={form.afterClose}
      />
      <LdapPreviewModal
        provider={ldapPreview.target ?? null}
        open={ldapPreview.open}
        onClose={ldapPreview.hide}
        afterClose={ldapPreview.afterClose}
        onPreview={preview.show}
      />
      <SsoPreviewModal preview={preview.preview} onClose={preview.close} />
    </Card>
  );
}
