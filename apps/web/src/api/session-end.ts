import { useAuthStore } from '../stores/auth-store';
import { navigateTo, toast } from './notify';

/** Long enough to read why the session ended before the login page replaces the screen. */
const REDIRECT_DELAY_MS = 1000;
let ending = false;

/**
 * Ends the session after the server refused it: clears local state at once, tells the
 * user why, and opens /login a second later. Repeated calls while ending are ignored.
 */
export function endSession(message: string): void {
  if (ending) return;
  ending = true;
  useAuthStore.getState().clearSession({ leaving: true });
  toast('error', message, { key: 'session-ended' });
  window.setTimeout(() => {
    ending = false;
    navigateTo('/login');
  }, REDIRECT_DELAY_MS);
}

export function isSessionEnding(): boolean {
  return ending;
}

/**
 * The account was disabled while signed in. The screen stays as it is, so that nothing typed
 * is lost (a refused message goes back into the text box), under a notice that lasts until
 * dismissed; every later call is refused the same way, and the next start of the app (or
 * signing out) leads to the login page.
 */
export function accountDisabled(message: string): void {
  toast('error', message, { key: ACCOUNT_DISABLED_NOTICE, duration: 0 });
}

/** The key of the lasting "account disabled" notice (one, however many calls are refused). */
export const ACCOUNT_DISABLED_NOTICE = 'account-disabled';
