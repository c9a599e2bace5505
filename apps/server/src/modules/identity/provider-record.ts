import {
  type CreateIdentityProviderBody,
  type IdentityMapping,
  IdentityMappingSchema,
  type IdentityProvider,
  type LdapConfigInput,
  type OidcConfigInput,
  type SamlConfigInput,
  type UpdateIdentityProviderBody,
} from '@aiplatform/contracts';
import type { IdentityProviderRow } from '../../db/types.js';
import type { SecretBox } from '../../lib/auth/secret-box.js';

/** OIDC settings with the client secret opened (null: a public client, or none stored). */
export type OidcSettings = Omit<OidcConfigInput, 'client_secret'> & { client_secret: string | null };
export type SamlSettings = SamlConfigInput;
/** LDAP settings with the bind password opened (null: an anonymous bind). */
export type LdapSettings = Omit<LdapConfigInput, 'bind_password'> & { bind_password: string | null };

interface ProviderBase {
  id: number;
  slug: string;
  name: string;
  enabled: boolean;
  mapping: IdentityMapping;
  jit: boolean;
  link_verified_email: boolean;
  default_group_id: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * A provider as the sign-in code uses it: configuration parsed and its secret opened. It
 * never leaves the server; `toIdentityProvider` is what administrators see.
 */
export type ProviderRecord =
  | (ProviderBase & { type: 'oidc'; config: OidcSettings })
  | (ProviderBase & { type: 'saml'; config: SamlSettings })
  | (ProviderBase & { type: 'ldap'; config: LdapSettings });

/** Where each type keeps its one secret inside the stored config, sealed. */
const SECRET_FIELD = { oidc: 'client_secret', saml: null, ldap: 'bind_password' } as const;
const sealedKey = (field: string) => `${field}_sealed`;

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The stored mapping, with today's defaults for what an older row lacks. */
export function parseMapping(text: string): IdentityMapping {
  const parsed = IdentityMappingSchema.safeParse(parseObject(text));
  return parsed.success ? parsed.data : IdentityMappingSchema.parse({});
}

/**
 * The config to store: the fields of the body with the secret sealed. A body without the
 * secret keeps the stored one (`previous`); null or '' removes it.
 */
export function sealConfig(
  type: ProviderRecord['type'],
  config: Record<string, unknown>,
  box: SecretBox,
  previous?: string,
): string {
  const field = SECRET_FIELD[type];
  const out: Record<string, unknown> = { ...config };
  if (field) {
    const given = out[field];
    delete out[field];
    const before = previous ? parseObject(previous)[sealedKey(field)] : undefined;
    if (given === undefined) out[sealedKey(field)] = typeof before === 'string' ? before : null;
    else out[sealedKey(field)] = typeof given === 'string' && given ? box.encrypt(given) : null;
  }
  return JSON.stringify(out);
}

/** The row as the sign-in code uses it. A secret that no longer opens (another APP_SECRET) reads as none. */
export function toProviderRecord(row: IdentityProviderRow, box: SecretBox): ProviderRecord {
  const stored = parseObject(row.config);
  const field = SECRET_FIELD[row.type];
  const config: Record<string, unknown> = { ...stored };
  if (field) {
    const sealed = stored[sealedKey(field)];
    delete config[sealedKey(field)];
    let opened: string | null = null;
    if (typeof sealed === 'string') {
      try {
        opened = box.decrypt(sealed);
      } catch {
        opened = null;
      }
    }
    config[field] = opened;
  }
  return { ...providerFields(row), config } as ProviderRecord;
}

/** A provider's settings other than its protocol configuration, as both views show them. */
function providerFields(row: IdentityProviderRow) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    type: row.type,
    enabled: row.enabled === 1,
    mapping: parseMapping(row.mapping),
    jit: row.jit === 1,
    link_verified_email: row.link_verified_email === 1,
    default_group_id: row.default_group_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The administrator's view: every setting, and only whether a secret is stored. */
export function toIdentityProvider(row: IdentityProviderRow): IdentityProvider {
  const stored = parseObject(row.config);
  const field = SECRET_FIELD[row.type];
  const config: Record<string, unknown> = { ...stored };
  if (field) {
    delete config[sealedKey(field)];
    config[field === 'client_secret' ? 'has_client_secret' : 'has_bind_password'] =
      typeof stored[sealedKey(field)] === 'string';
  }
  return { ...providerFields(row), config } as IdentityProvider;
}

/** What the audit log compares: the administrator's view, which holds no secret. */
export function providerSnapshot(row: IdentityProviderRow): Record<string, unknown> {
  const { created_at: _c, updated_at: _u, ...rest } = toIdentityProvider(row);
  return rest;
}

export type ProviderBody = CreateIdentityProviderBody | UpdateIdentityProviderBody;
