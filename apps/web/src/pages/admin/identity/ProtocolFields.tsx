import { Alert, Form, Input, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OIDC_PRESETS, type OidcPreset, type ProviderFormValues, providerAddresses } from './provider-form-values';

const required = (message: string) => [{ required: true, whitespace: true, message }];

/** What to register at the provider: the addresses it sends people back to. */
function AddressesHint({ slug, type }: { slug: string; type: ProviderFormValues['type'] }) {
  const { t } = useTranslation();
  const urls = providerAddresses(window.location.origin, slug);
  const lines =
    type === 'oidc'
      ? [[t('admin:identity.form.redirectUri'), urls.callback]]
      : [
          [t('admin:identity.form.acsUrl'), urls.acs],
          [t('admin:identity.form.metadataUrl'), urls.metadata],
        ];
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      message={lines.map(([label, url]) => (
        <div key={label}>
          {label}: <Typography.Text copyable={{ text: url }}>{url}</Typography.Text>
        </div>
      ))}
    />
  );
}

/** OpenID Connect: a preset fills the issuer pattern and claim names of the well-known providers. */
export function OidcFields({
  slug,
  editing,
  onPreset,
}: {
  slug: string;
  editing: boolean;
  onPreset: (preset: OidcPreset) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <AddressesHint slug={slug} type="oidc" />
      {!editing && (
        <Form.Item label={t('admin:identity.form.preset')} extra={t('admin:identity.form.presetHint')}>
          <Select<OidcPreset>
            placeholder={t('admin:identity.form.presetPlaceholder')}
            options={Object.keys(OIDC_PRESETS).map((key) => ({
              value: key as OidcPreset,
              label: t(`admin:identity.presets.${key}`),
            }))}
            onChange={onPreset}
            data-testid="provider-preset"
          />
        </Form.Item>
      )}
      <Form.Item
        name="issuer"
        label={t('admin:identity.form.issuer')}
        rules={required(t('admin:identity.form.issuerRequired'))}
      >
        <Input placeholder="https://idp.example.com" data-testid="provider-issuer" />
      </Form.Item>
      <Form.Item
        name="client_id"
        label={t('admin:identity.form.clientId')}
        rules={required(t('validation:identityProvider.clientId'))}
      >
        <Input autoComplete="off" data-testid="provider-client-id" />
      </Form.Item>
      <Form.Item
        name="client_secret"
        label={t('admin:identity.form.clientSecret')}
        extra={editing ? t('admin:identity.form.secretKept') : undefined}
      >
        <Input.Password autoComplete="new-password" data-testid="provider-client-secret" />
      </Form.Item>
      <Form.Item name="scopes" label={t('admin:identity.form.scopes')}>
        <Input data-testid="provider-scopes" />
      </Form.Item>
    </>
  );
}

/** SAML 2.0: the identity provider's metadata, pasted; this site's entity ID. */
export function SamlFields({ slug }: { slug: string }) {
  const { t } = useTranslation();
  return (
    <>
      <AddressesHint slug={slug} type="saml" />
      <Form.Item
        name="sp_entity_id"
        label={t('admin:identity.form.spEntityId')}
        rules={required(t('validation:identityProvider.entityId'))}
      >
        <Input placeholder="https://chat.example.com/saml" data-testid="provider-sp-entity-id" />
      </Form.Item>
      <Form.Item
        name="idp_metadata_xml"
        label={t('admin:identity.form.idpMetadata')}
        rules={required(t('validation:identityProvider.metadata'))}
      >
        <Input.TextArea rows={6} spellCheck={false} data-testid="provider-idp-metadata" />
      </Form.Item>
    </>
  );
}

/** LDAP / Active Directory: where people and groups are, and the service account that searches. */
export function LdapFields({ editing }: { editing: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="url"
        label={t('admin:identity.form.ldapUrl')}
        rules={required(t('validation:identityProvider.ldapUrl'))}
      >
        <Input placeholder="ldaps://ldap.example.com" data-testid="provider-ldap-url" />
      </Form.Item>
      <Form.Item name="start_tls" label={t('admin:identity.form.startTls')} valuePropName="checked">
        <Switch data-testid="provider-start-tls" />
      </Form.Item>
      <Form.Item name="bind_dn" label={t('admin:identity.form.bindDn')}>
        <Input placeholder="cn=search,dc=example,dc=com" data-testid="provider-bind-dn" />
      </Form.Item>
      <Form.Item
        name="bind_password"
        label={t('admin:identity.form.bindPassword')}
        extra={editing ? t('admin:identity.form.secretKept') : undefined}
      >
        <Input.Password autoComplete="new-password" data-testid="provider-bind-password" />
      </Form.Item>
      <Form.Item
        name="user_base"
        label={t('admin:identity.form.userBase')}
        rules={required(t('validation:identityProvider.dn'))}
      >
        <Input placeholder="ou=people,dc=example,dc=com" data-testid="provider-user-base" />
      </Form.Item>
      <Form.Item
        name="user_filter"
        label={t('admin:identity.form.userFilter')}
        extra={t('admin:identity.form.userFilterHint')}
      >
        <Input data-testid="provider-user-filter" />
      </Form.Item>
      <Form.Item name="group_base" label={t('admin:identity.form.groupBase')}>
        <Input placeholder="ou=groups,dc=example,dc=com" data-testid="provider-group-base" />
      </Form.Item>
      <Form.Item
        name="group_filter"
        label={t('admin:identity.form.groupFilter')}
        extra={t('admin:identity.form.groupFilterHint')}
      >
        <Input placeholder="(member={dn})" data-testid="provider-group-filter" />
      </Form.Item>
    </>
  );
}
