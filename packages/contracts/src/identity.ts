import { z } from 'zod';
import { HttpUrlSchema } from './admin/admin-models.js';
import { ROW_ID_MAX } from './admin/pagination.js';

/**
 * Enterprise single sign-on: the identity providers an organisation connects (OIDC, SAML,
 * LDAP), how their claims map onto accounts, groups and roles, and the public side of
 * signing in through them.
 */
export const IDENTITY_PROVIDER_TYPES = ['oidc', 'saml', 'ldap'] as const;
export type IdentityProviderType = (typeof IDENTITY_PROVIDER_TYPES)[number];

/** Lowercase letters, digits and single hyphens between them: the slug is part of sign-in addresses. */
export const PROVIDER_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const DEFAULT_LDAP_USER_FILTER = '(|(uid={login})(mail={login}))';
export const DEFAULT_OIDC_SCOPES = ['openid', 'email', 'profile'] as const;

const text = (max: number, key: string) => z.string({ error: key }).trim().min(1, key).max(max, key);
/** A secret is write-only: absent keeps the stored one, null or '' removes it, a value replaces it. */
const secret = (key: string) => z.string({ error: key }).max(4000, key).nullable().optional();
const optionalText = (max: number, key: string) => z.string({ error: key }).trim().max(max, key);

const GroupRefSchema = z
  .number({ error: 'validation.group.notFound' })
  .int('validation.group.notFound')
  .min(1, 'validation.group.notFound')
  .max(ROW_ID_MAX, 'validation.group.notFound');

/**
 * Where a person's attributes are read from (OIDC claims, SAML attributes, LDAP attributes),
 * and how the groups they carry map onto our groups and roles. The first `group_map` entry
 * whose value the person carries sets their group at every sign-in (unless an administrator
 * pinned it); `role_map` may make a group administrator, never a super administrator.
 */
export const IdentityMappingSchema = z.object({
  email_claim: optionalText(200, 'validation.identityProvider.claim').default('email'),
  username_claim: optionalText(200, 'validation.identityProvider.claim').default('preferred_username'),
  name_claim: optionalText(200, 'validation.identityProvider.claim').default('name'),
  groups_claim: optionalText(200, 'validation.identityProvider.claim').default('groups'),
  /**
   * When not empty, only people carrying one of these values (group claim values, SAML group
   * attributes, LDAP group DNs) may sign in through this provider, new or returning; the
   * others are refused with SSO_GROUP_REQUIRED.
   */
  required_groups: z.array(text(1000, 'validation.identityProvider.mapValue')).max(200).default([]),
  group_map: z
    .array(z.object({ value: text(1000, 'validation.identityProvider.mapValue'), group_id: GroupRefSchema }))
    .max(200)
    .default([]),
  role_map: z
    .array(
      z.object({
        value: text(1000, 'validation.identityProvider.mapValue'),
        role: z.enum(['admin'], { error: 'validation.identityProvider.mapRole' }),
      }),
    )
    .max(200)
    .default([]),
});
export type IdentityMapping = z.infer<typeof IdentityMappingSchema>;

// Configuration as written by an administrator, one shape per protocol.
export const OidcConfigInputSchema = z.object({
  issuer: HttpUrlSchema,
  client_id: text(500, 'validation.identityProvider.clientId'),
  client_secret: secret('validation.identityProvider.secret'),
  scopes: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[\x21-\x7e]{1,100}$/, 'validation.identityProvider.scopes'),
    )
    .max(30, 'validation.identityProvider.scopes')
    .default([...DEFAULT_OIDC_SCOPES]),
});
export const SamlConfigInputSchema = z.object({
  idp_metadata_xml: text(200_000, 'validation.identityProvider.metadata'),
  sp_entity_id: text(1000, 'validation.identityProvider.entityId'),
});
export const LdapConfigInputSchema = z.object({
  url: z
    .string({ error: 'validation.identityProvider.ldapUrl' })
    .trim()
    .max(1000, 'validation.identityProvider.ldapUrl')
    .refine((v) => /^ldaps?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'validation.identityProvider.ldapUrl'),
  bind_dn: optionalText(1000, 'validation.identityProvider.dn').default(''),
  bind_password: secret('validation.identityProvider.secret'),
  user_base: text(1000, 'validation.identityProvider.dn'),
  user_filter: text(1000, 'validation.identityProvider.filter').default(DEFAULT_LDAP_USER_FILTER),
  group_base: optionalText(1000, 'validation.identityProvider.dn').default(''),
  group_filter: optionalText(1000, 'validation.identityProvider.filter').default(''),
  start_tls: z.boolean().default(false),
});
export type OidcConfigInput = z.infer<typeof OidcConfigInputSchema>;
export type SamlConfigInput = z.infer<typeof SamlConfigInputSchema>;
export type LdapConfigInput = z.infer<typeof LdapConfigInputSchema>;

// Configuration as answered: every field but the secrets, which say only whether one is set.
export const OidcConfigSchema = OidcConfigInputSchema.omit({ client_secret: true }).extend({
  issuer: z.string(),
  has_client_secret: z.boolean(),
});
export const SamlConfigSchema = SamlConfigInputSchema;
export const LdapConfigSchema = LdapConfigInputSchema.omit({ bind_password: true }).extend({
  url: z.string(),
  has_bind_password: z.boolean(),
});
export type OidcConfig = z.infer<typeof OidcConfigSchema>;
export type SamlConfig = z.infer<typeof SamlConfigSchema>;
export type LdapConfig = z.infer<typeof LdapConfigSchema>;

const ProviderAnswerFields = {
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  mapping: IdentityMappingSchema,
  jit: z.boolean(),
  link_verified_email: z.boolean(),
  default_group_id: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

/** An identity provider as administrators see it; secrets never leave the server. */
export const IdentityProviderSchema = z.discriminatedUnion('type', [
  z.object({ ...ProviderAnswerFields, type: z.literal('oidc'), config: OidcConfigSchema }),
  z.object({ ...ProviderAnswerFields, type: z.literal('saml'), config: SamlConfigSchema }),
  z.object({ ...ProviderAnswerFields, type: z.literal('ldap'), config: LdapConfigSchema }),
]);
export type IdentityProvider = z.infer<typeof IdentityProviderSchema>;

const ProviderBodyFields = {
  slug: z
    .string({ error: 'validation.identityProvider.slug' })
    .trim()
    .max(64, 'validation.identityProvider.slug')
    .regex(PROVIDER_SLUG_PATTERN, 'validation.identityProvider.slug'),
  name: text(100, 'validation.identityProvider.name'),
  enabled: z.boolean().optional(),
  mapping: IdentityMappingSchema.optional(),
  jit: z.boolean().optional(),
  link_verified_email: z.boolean().optional(),
  /** null: new accounts join the site's default group. */
  default_group_id: GroupRefSchema.nullable().optional(),
};

/** POST /admin/identity-providers: the type decides the shape of `config`. */
export const CreateIdentityProviderBodySchema = z.discriminatedUnion(
  'type',
  [
    z.object({ ...ProviderBodyFields, type: z.literal('oidc'), config: OidcConfigInputSchema }),
    z.object({ ...ProviderBodyFields, type: z.literal('saml'), config: SamlConfigInputSchema }),
    z.object({ ...ProviderBodyFields, type: z.literal('ldap'), config: LdapConfigInputSchema }),
  ],
  { error: 'validation.identityProvider.type' },
);
export type CreateIdentityProviderBody = z.infer<typeof CreateIdentityProviderBodySchema>;

const partialFields = {
  slug: ProviderBodyFields.slug.optional(),
  name: ProviderBodyFields.name.optional(),
  enabled: ProviderBodyFields.enabled,
  mapping: ProviderBodyFields.mapping,
  jit: ProviderBodyFields.jit,
  link_verified_email: ProviderBodyFields.link_verified_email,
  default_group_id: ProviderBodyFields.default_group_id,
};

/**
 * PUT /admin/identity-providers/{id}: `type` names the provider's type (it cannot change);
 * fields left out keep their value, and so does a secret left out of `config`.
 */
export const UpdateIdentityProviderBodySchema = z.discriminatedUnion(
  'type',
  [
    z.object({ ...partialFields, type: z.literal('oidc'), config: OidcConfigInputSchema.optional() }),
    z.object({ ...partialFields, type: z.literal('saml'), config: SamlConfigInputSchema.optional() }),
    z.object({ ...partialFields, type: z.literal('ldap'), config: LdapConfigInputSchema.optional() }),
  ],
  { error: 'validation.identityProvider.type' },
);
export type UpdateIdentityProviderBody = z.infer<typeof UpdateIdentityProviderBodySchema>;

/** POST /admin/identity-providers/{id}/test: discovery fetched, metadata parsed or LDAP bind done. */
export const IdentityProviderTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type IdentityProviderTestResult = z.infer<typeof IdentityProviderTestResultSchema>;

/** GET /auth/providers: the enabled providers the sign-in page offers. */
export const SignInProviderSchema = z.object({
  slug: z.string(),
  name: z.string(),
  type: z.enum(IDENTITY_PROVIDER_TYPES),
});
export type SignInProvider = z.infer<typeof SignInProviderSchema>;

/** POST /auth/sso/exchange: the one-time code the callback put in `/sso/complete#code=…`. */
export const SsoExchangeBodySchema = z.object({
  code: z.string({ error: 'validation.code.required' }).trim().min(1, 'validation.code.required').max(200),
  /**
   * The random value the browser tab kept when it started the sign-in (`binding` on the start
   * address): a sign-in that was started with one is finished only by presenting it, so a
   * callback address sent from someone else's sign-in cannot sign anybody in.
   */
  binding: z.string().max(200).optional(),
});
export type SsoExchangeBody = z.infer<typeof SsoExchangeBodySchema>;

/**
 * POST /admin/identity-providers/{id}/preview: a test sign-in. LDAP takes the person's login
 * and password (checked against the directory once, never stored); OIDC and SAML take nothing.
 */
export const SsoPreviewStartBodySchema = z.object({
  login: z.string().trim().min(1, 'validation.account.required').max(256).optional(),
  password: z.string().min(1, 'validation.password.required').max(1024).optional(),
});
export type SsoPreviewStartBody = z.infer<typeof SsoPreviewStartBodySchema>;

/** What a sign-in with the previewed profile would do; nothing of it is carried out. */
export const SsoPreviewOutcomeSchema = z.object({
  account: z.enum(['existing', 'link', 'create', 'conflict', 'not_provisioned', 'not_allowed', 'disabled']),
  /** The account signed in as, linked or refused as disabled. */
  user_id: z.number().optional(),
  /** The group the group map would set; null when no entry matches or the account's group is pinned. */
  group_id: z.number().nullable(),
  group_name: z.string().nullable(),
  /** What the role map would give; null when it is empty (or the account is a super administrator). */
  role: z.enum(['admin', 'user']).nullable(),
});
export type SsoPreviewOutcome = z.infer<typeof SsoPreviewOutcomeSchema>;

export const SsoPreviewSchema = z.object({
  subject: z.string(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  groups: z.array(z.string()),
  /** The provider's claims or attributes, secrets left out. */
  claims: z.record(z.string(), z.unknown()),
  outcome: SsoPreviewOutcomeSchema,
});
export type SsoPreview = z.infer<typeof SsoPreviewSchema>;

/**
 * OIDC and SAML: where to send the browser (`url`, or for a SAML IdP taking only HTTP-POST
 * the `form` to post); its callback lands on the identity page with `#preview=<code>`. LDAP:
 * the preview itself.
 */
export const SsoPreviewStartSchema = z.object({
  url: z.string().nullable(),
  form: z.object({ action: z.string(), fields: z.record(z.string(), z.string()) }).nullable(),
  preview: SsoPreviewSchema.nullable(),
});
export type SsoPreviewStart = z.infer<typeof SsoPreviewStartSchema>;

/** POST /admin/identity-providers/{id}/preview/result: the code from `#preview=`. */
export const SsoPreviewResultBodySchema = z.object({
  code: z.string({ error: 'validation.code.required' }).trim().min(1, 'validation.code.required').max(200),
});
