/**
 * Who an identity provider says a person is, whatever the protocol (OIDC claims, SAML
 * attributes, an LDAP entry). Accounts are keyed by (provider, subject), never by email:
 * `emailVerified` says whether the provider vouches for the address, and only then may a
 * first sign-in link to an existing local account with that email.
 */
export interface ExternalProfile {
  /** Stable identifier of the person at the provider: OIDC `sub`, SAML NameID, LDAP entry DN or its GUID. */
  subject: string;
  email?: string;
  emailVerified: boolean;
  username?: string;
  name?: string;
  /** Group claim values, SAML group attribute values or LDAP group DNs, matched against the provider's group map. */
  groups: string[];
  /** Everything the provider sent, for the administrator's claims preview (secrets never included). */
  claims: Record<string, unknown>;
}
