import type { IdentityMapping } from '@aiplatform/contracts';
import type { ExternalProfile } from '../external-profile.js';

/** A claim as one string, when it is one (or a number); anything else is absent. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** Group claims come as an array of strings, or one string (some providers, one group). */
function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text).filter((v): v is string => v !== undefined);
  const one = text(value);
  return one ? [one] : [];
}

/**
 * Claims may be nested (`realm_access.roles` in Keycloak): a dotted name walks into objects
 * when no claim carries the whole name.
 */
function claim(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Whether the claims lack what the mapping reads from them and the userinfo endpoint may add. */
export function missesMappedClaims(claims: Record<string, unknown>, mapping: IdentityMapping): boolean {
  return claim(claims, mapping.email_claim) === undefined || claim(claims, mapping.groups_claim) === undefined;
}

/**
 * The person an ID token (with userinfo) describes. The email counts as verified only when the
 * provider says so with `email_verified: true` (a few send the string "true").
 */
export function oidcProfile(claims: Record<string, unknown>, mapping: IdentityMapping): ExternalProfile {
  const verified = claims.email_verified;
  return {
    subject: text(claims.sub) ?? '',
    email: text(claim(claims, mapping.email_claim)),
    emailVerified: verified === true || verified === 'true',
    username: text(claim(claims, mapping.username_claim)),
    name: text(claim(claims, mapping.name_claim)),
    groups: list(claim(claims, mapping.groups_claim)),
    claims,
  };
}
