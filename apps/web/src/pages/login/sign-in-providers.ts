import type { SignInProvider } from '@aiplatform/contracts';
import { useEffect, useState } from 'react';
import { call } from '../../api/call';

/** The enabled providers, read once per page load (the login page carries no query library). */
let loaded: Promise<SignInProvider[]> | null = null;

function loadProviders(): Promise<SignInProvider[]> {
  // A server that cannot list them still lets people sign in with a password.
  loaded ??= call('listSignInProviders', { silent: true }).catch(() => []);
  return loaded;
}

/** Providers the sign-in page offers: redirect ones (OIDC, SAML) as buttons, directories (LDAP) in the password form. */
export function useSignInProviders(): { redirects: SignInProvider[]; directories: SignInProvider[]; ready: boolean } {
  const [providers, setProviders] = useState<SignInProvider[] | null>(null);
  useEffect(() => {
    let alive = true;
    void loadProviders().then((list) => alive && setProviders(list));
    return () => {
      alive = false;
    };
  }, []);
  const list = providers ?? [];
  return {
    redirects: list.filter((p) => p.type !== 'ldap'),
    directories: list.filter((p) => p.type === 'ldap'),
    ready: providers !== null,
  };
}
