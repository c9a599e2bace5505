import type { IdentityProvider, IdentityProviderType } from '@aiplatform/contracts';
import { Flex, Form, Input, Modal, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useGroupOptions } from '../shared/use-group-options';
import { useOverlaySize } from '../shared/use-overlay-size';
import { MappingFields } from './MappingFields';
import { LdapFields, OidcFields, SamlFields } from './ProtocolFields';
import { OIDC_PRESETS, type ProviderFormValues, formValuesOf, providerBodyOf } from './provider-form-values';

interface ProviderFormModalProps {
  /** The provider to edit; null connects a new one. */
  provider: IdentityProvider | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

/** Connect or edit an identity provider: protocol settings, who gets an account, and the mapping. */
export function ProviderFormModal({ provider, open, onClose, afterClose }: ProviderFormModalProps) {
  const { t } = useTranslation();
  const { modalWidth } = useOverlaySize(720);
  const [form] = Form.useForm<ProviderFormValues>();
  const type = Form.useWatch('type', form) ?? provider?.type ?? 'oidc';
  const slug = Form.useWatch('slug', form) ?? provider?.slug ?? '';
  const { options: groups } = useGroupOptions();
  const save = useAdminMutation({
    mutationFn: (values: ProviderFormValues) => {
      const body = providerBodyOf(values);
      return provider
        ? call('updateIdentityProvider', { params: { id: provider.id }, body })
        : call('createIdentityProvider', { body });
    },
    invalidates: [adminKeys.identityProviders],
    successText: (saved) =>
      t(provider ? 'admin:identity.updatedDone' : 'admin:identity.createdDone', { name: saved.name }),
    failureKey: provider ? 'admin:identity.updateFailed' : 'admin:identity.createFailed',
    onSuccess: onClose,
  });

  const applyPreset = (preset: keyof typeof OIDC_PRESETS) => {
    const p = OIDC_PRESETS[preset];
    form.setFieldsValue({ issuer: p.issuer });
    form.setFieldValue(['mapping', 'groups_claim'], p.groups_claim);
    form.setFieldValue(['mapping', 'username_claim'], p.username_claim);
  };

  return (
    <Modal
      open={open}
      title={provider ? t('admin:identity.editTitle', { name: provider.name }) : t('admin:identity.createTitle')}
      okText={t('admin:actions.save')}
      cancelText={t('common:cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={afterClose}
      width={modalWidth}
      destroyOnHidden
      forceRender
      okButtonProps={{ 'data-testid': 'provider-form-submit' }}
      data-testid="provider-form-modal"
    >
      <Form<ProviderFormValues>
        key={provider?.id ?? 'new'}
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={formValuesOf(provider)}
        onFinish={(values) => save.mutate(values)}
      >
        <Flex gap={12} wrap>
          <Form.Item name="type" label={t('admin:identity.form.type')} style={{ flex: '1 1 160px' }}>
            <Select<IdentityProviderType>
              disabled={!!provider}
              options={(['oidc', 'saml', 'ldap'] as const).map((value) => ({
                value,
                label: t(`admin:identity.types.${value}`),
              }))}
              data-testid="provider-type"
            />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('admin:identity.form.name')}
            rules={[{ required: true, whitespace: true, message: t('validation:identityProvider.name') }]}
            style={{ flex: '2 1 200px' }}
          >
            <Input maxLength={100} placeholder={t('admin:identity.form.namePlaceholder')} data-testid="provider-name" />
          </Form.Item>
          <Form.Item
            name="slug"
            label={t('admin:identity.form.slug')}
            extra={t('admin:identity.form.slugHint')}
            rules={[
              { required: true, pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/, message: t('validation:identityProvider.slug') },
            ]}
            style={{ flex: '1 1 160px' }}
          >
            <Input maxLength={64} data-testid="provider-slug" />
          </Form.Item>
        </Flex>
        {type === 'oidc' && <OidcFields slug={slug} editing={!!provider} onPreset={applyPreset} />}
        {type === 'saml' && <SamlFields slug={slug} />}
        {type === 'ldap' && <LdapFields editing={!!provider} />}
        <Typography.Title level={5}>{t('admin:identity.accounts.title')}</Typography.Title>
        <Flex gap={16} wrap>
          <Form.Item name="enabled" label={t('admin:identity.form.enabled')} valuePropName="checked">
            <Switch data-testid="provider-enabled" />
          </Form.Item>
          <Form.Item
            name="jit"
            label={t('admin:identity.accounts.jit')}
            valuePropName="checked"
            tooltip={t('admin:identity.accounts.jitHint')}
          >
            <Switch data-testid="provider-jit" />
          </Form.Item>
          <Form.Item
            name="link_verified_email"
            label={t('admin:identity.accounts.linkVerifiedEmail')}
            valuePropName="checked"
            tooltip={t('admin:identity.accounts.linkVerifiedEmailHint')}
          >
            <Switch data-testid="provider-link-email" />
          </Form.Item>
          <Form.Item
            name="default_group_id"
            label={t('admin:identity.accounts.defaultGroup')}
            style={{ flex: '1 1 200px' }}
          >
            <Select
              allowClear
              options={groups}
              placeholder={t('admin:identity.accounts.defaultGroupPlaceholder')}
              data-testid="provider-default-group"
            />
          </Form.Item>
        </Flex>
        <MappingFields />
      </Form>
    </Modal>
  );
}
