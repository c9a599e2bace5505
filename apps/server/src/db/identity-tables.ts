import type { Generated } from 'kysely';

/*
 * The tables of single sign-on and provisioning (migrations 0018-0021), kept apart from the
 * rest of the schema in types.ts, which gathers them into `Database`. Timestamps are ISO-8601
 * UTC strings and booleans 0/1, as everywhere.
 */

/**
 * A connected identity provider. `config` is JSON of the protocol's settings with its secret
 * (OIDC `client_secret`, LDAP `bind_password`) sealed by SecretBox under `*_sealed`;
 * `mapping` is JSON of the claim names and the group and role maps.
 */
export interface IdentityProvidersTable {
  id: Generated<number>;
  slug: string;
  name: string;
  type: 'oidc' | 'saml' | 'ldap';
  enabled: number;
  config: string;
  mapping: string;
  jit: number;
  link_verified_email: number;
  default_group_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A person at a provider (provider, subject) tied to an account; never matched by email alone. */
export interface UserIdentitiesTable {
  id: Generated<number>;
  provider_id: number;
  subject: string;
  user_id: number;
  email: string | null;
  created_at: string;
  last_login_at: string | null;
}

/** What a sign-in started remembers until its callback: single use, short-lived. */
export interface SsoStatesTable {
  /** SHA-256 of the `state` sent to the provider. */
  state_hash: string;
  provider_id: number;
  nonce: string;
  code_verifier: string;
  /** This site's path to land on afterwards. */
  redirect: string;
  expires_at: string;
  /** Set when the flow is an administrator's test sign-in: their user id (nobody is signed in). */
  preview_for: number | null;
  /** SHA-256 of the value the starting browser tab keeps (migration 0021); null: not bound. */
  binding_hash: Generated<string | null>;
}

/** The callback's one-time code, traded once for a session by POST /auth/sso/exchange. */
export interface SsoExchangeCodesTable {
  /** SHA-256 of the code. */
  code_hash: string;
  user_id: number;
  provider_id: number;
  expires_at: string;
  /** The state's binding, carried on (migration 0021). */
  binding_hash: Generated<string | null>;
}

/** A test sign-in's result waiting for the administrator who started it: single use, ten minutes. */
export interface SsoPreviewsTable {
  /** SHA-256 of the one-time code. */
  code_hash: string;
  /** The administrator the preview is for. */
  user_id: number;
  provider_id: number;
  /** The preview as JSON. */
  result: string;
  expires_at: string;
}

/** SAML assertion ids already accepted, kept until the assertion would expire anyway. */
export interface SamlSeenAssertionsTable {
  provider_id: number;
  assertion_id: string;
  expires_at: string;
}

/** A SCIM bearer token: only its SHA-256 is kept; revoked tokens stay for the audit trail. */
export interface ScimTokensTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  created_by: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
