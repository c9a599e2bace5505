import type { UserRow } from '../../db/types.js';

/**
 * Proves a login and password against an organisation's directory (an LDAP provider) and
 * answers the account it signs in as. The identity module provides it; the password sign-in
 * calls it when the body names a provider, under the same attempt rules as local passwords.
 */
export interface DirectorySignIn {
  verify(providerSlug: string, account: string, password: string): Promise<UserRow>;
}
