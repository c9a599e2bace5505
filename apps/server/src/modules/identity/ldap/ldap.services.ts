import type { IdentityServices } from '../identity.services.js';
import type { LdapDirectoryOptions } from './ldap-directory.js';
import { LdapSignIn, registerLdapPreview, registerLdapTester } from './ldap-sign-in.js';

/** LDAP on top of the identity core: its connection test registered, and the password sign-in it offers. */
export function createLdapServices(identity: IdentityServices, options?: LdapDirectoryOptions) {
  registerLdapTester(identity.testers, options);
  registerLdapPreview(identity.previews, options);
  return { signIn: new LdapSignIn({ providers: identity.providers, signIn: identity.signIn, options }) };
}
