import type { LoginMode } from '@aiplatform/contracts';

/**
 * Registration answers without a session, so the new account is signed in with the
 * credentials just typed, where the login mode allows a password alone; the high-security
 * mode also needs a mailed code, so there the login page opens with the address filled in.
 */
export function signsInRightAfterRegistering(mode: LoginMode): boolean {
  return mode === 'standard';
}

/** Router state handed to /login: the account to fill in. */
export interface LoginPrefill {
  account: string;
}

export function loginPrefill(account: string): LoginPrefill {
  return { account };
}

/** The account to fill in on /login, from router state that anyone could have pushed. */
export function prefilledAccount(state: unknown): string {
  if (typeof state !== 'object' || state === null || !('account' in state)) return '';
  const { account } = state;
  return typeof account === 'string' ? account.slice(0, 254) : '';
}
