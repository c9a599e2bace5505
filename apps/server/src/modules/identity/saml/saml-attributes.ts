import type { Profile } from '@node-saml/node-saml';
import type { ExternalProfile } from '../external-profile.js';

/** The provider's mapping, naming SAML attributes (by their `Name`) instead of OIDC claims. */
export interface SamlAttributeMapping {
  email_claim: string;
  username_claim: string;
  name_claim: string;
  groups_claim: string;
}

/**
 * Who a verified assertion says signed in. The subject is the NameID; the rest comes from
 * the attributes the mapping names.
 *
 * `emailVerified` is true whenever the signed assertion carries an email: SAML has no
 * per-attribute "verified" flag, and the IdP the administrator registered signed it. That
 * alone never links an existing local account: linking by email also needs the provider's
 * `link_verified_email` switch, which an administrator should turn on only when the IdP
 * itself controls the email attribute (for example a directory's managed `mail` field,
 * not an address people edit in their own profile).
 */
export function profileFromAttributes(profile: Profile, mapping: SamlAttributeMapping): ExternalProfile {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const email = firstText(attributes[mapping.email_claim]);
  return {
    subject: profile.nameID,
    email,
    emailVerified: email !== undefined,
    username: firstText(attributes[mapping.username_claim]),
    name: firstText(attributes[mapping.name_claim]),
    groups: allTexts(attributes[mapping.groups_claim]),
    claims: {
      nameID: profile.nameID,
      nameIDFormat: profile.nameIDFormat,
      issuer: profile.issuer,
      attributes,
    },
  };
}

/** node-saml gives a single value as a string, several as an array; empty or structured values are not text. */
function allTexts(value: unknown): string[] {
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  return values
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function firstText(value: unknown): string | undefined {
  return allTexts(value)[0];
}
