import {
  type CreateIdentityProviderBody,
  DEFAULT_LDAP_USER_FILTER,
  DEFAULT_OIDC_SCOPES,
  type IdentityMapping,
  type IdentityProvider,
  type IdentityProviderType,
} from '@aiplatform/contracts';

/**
 * The provider form's values: one flat record for all three protocols (the form shows the
 * fields of the chosen type), secrets empty unless the administrator types a new one.
 */
export interface ProviderFormValues {
  type: IdentityProviderType;
  slug: string;
  name: string;
  enabled: boolean;
  jit: boolean;
  link_verified_email: boolean;
  default_group_id: number | null;
  // OIDC
  issuer: string;
  client_id: string;
  client_secret: string;
  /** Space-separated, as providers document them. */
  scopes: string;
  // SAML
  idp_metadata_xml: string;
  sp_entity_id: string;
  // LDAP
  url: string;
  bind_dn: string;
  bind_password: string;
  user_base: string;
  user_filter: string;
  group_base: string;
  group_filter: string;
  start_tls: boolean;
  mapping: IdentityMapping;
}

export const DEFAULT_MAPPING: IdentityMapping = {
  email_claim: 'email',
  username_claim: 'preferred_username',
  name_claim: 'name',
  groups_claim: 'groups',
  required_groups: [],
  group_map: [],
  role_map: [],
};

/**
 * Where the well-known OpenID providers keep their issuer and group claim. `{tenant}`,
 * `{domain}` and `{realm}` are for the administrator to fill in; the hint says which.
 */
export const OIDC_PRESETS = {
  entra: {
    issuer: 'https://login.microsoftonline.com/{tenant}/v2.0',
    groups_claim: 'groups',
    username_claim: 'preferred_username',
  },
  okta: { issuer: 'https://{domain}.okta.com', groups_claim: 'groups', username_claim: 'preferred_username' },
  keycloak: { issuer: 'https://{domain}/realms/{realm}', groups_claim: 'groups', username_claim: 'preferred_username' },
  google: { issuer: 'https://accounts.google.com', groups_claim: 'groups', username_claim: 'email' },
  generic: { issuer: '', groups_claim: 'groups', username_claim: 'preferred_username' },
} as const;
export type OidcPreset = keyof typeof OIDC_PRESETS;

/** The form for a new provider of `type`, or for editing `provider` (its secrets left blank: kept unless replaced). */
export function formValuesOf(
  provider: IdentityProvider | null,
  type: IdentityProviderType = 'oidc',
): ProviderFormValues {
  const values: ProviderFormValues = {
    type: provider?.type ?? type,
    slug: provider?.slug ?? '',
    name: provider?.name ?? '',
    enabled: provider?.enabled ?? true,
    jit: provider?.jit ?? true,
    link_verified_email: provider?.link_verified_email ?? false,
    default_group_id: provider?.default_group_id ?? null,
    issuer: '',
    client_id: '',
    client_secret: '',
    scopes: DEFAULT_OIDC_SCOPES.join(' '),
    idp_metadata_xml: '',
    sp_entity_id: '',
    url: '',
    bind_dn: '',
    bind_password: '',
    user_base: '',
    user_filter: DEFAULT_LDAP_USER_FILTER,
    group_base: '',
    group_filter: '',
    start_tls: false,
    mapping: provider?.mapping ?? DEFAULT_MAPPING,
  };
  if (provider?.type === 'oidc') {
    const { issuer, client_id, scopes } = provider.config;
    Object.assign(values, { issuer, client_id, scopes: scopes.join(' ') });
  } else if (provider?.type === 'saml') {
    Object.assign(values, provider.config);
  } else if (provider?.type === 'ldap') {
    const { url, bind_dn, user_base, user_filter, group_base, group_filter, start_tls } = provider.config;
    Object.assign(values, { url, bind_dn, user_base, user_filter, group_base, group_filter, start_tls });
  }
  return values;
}

/** A secret field: left empty it is not sent, so the stored one stays. */
const secretPart = (value: string) => (value.trim() ? value : undefined);

/** What the form sends: the chosen type's configuration only. */
export function providerBodyOf(v: ProviderFormValues): CreateIdentityProviderBody {
  const common = {
    slug: v.slug.trim(),
    name: v.name.trim(),
    enabled: v.enabled,
    jit: v.jit,
    link_verified_email: v.link_verified_email,
    default_group_id: v.default_group_id ?? null,
    mapping: v.mapping,
  };
  if (v.type === 'oidc')
    return {
      ...common,
      type: 'oidc',
      config: {
        issuer: v.issuer.trim(),
        client_id: v.client_id.trim(),
        client_secret: secretPart(v.client_secret),
        scopes: v.scopes.split(/\s+/).filter(Boolean),
      },
    };
  if (v.type === 'saml')
    return {
      ...common,
      type: 'saml',
      config: { idp_metadata_xml: v.idp_metadata_xml, sp_entity_id: v.sp_entity_id.trim() },
    };
  return {
    ...common,
    type: 'ldap',
    config: {
      url: v.url.trim(),
      bind_dn: v.bind_dn.trim(),
      bind_password: secretPart(v.bind_password),
      user_base: v.user_base.trim(),
      user_filter: v.user_filter.trim(),
      group_base: v.group_base.trim(),
      group_filter: v.group_filter.trim(),
      start_tls: v.start_tls,
    },
  };
}

/** The addresses an administrator registers at the provider, for this site and slug. */
export function providerAddresses(origin: string, slug: string) {
  const base = `${origin}/api/auth/sso/${slug ? encodeURIComponent(slug) : '{slug}'}`;
  return { callback: `${base}/callback`, acs: `${base}/acs`, metadata: `${base}/metadata` };
}
