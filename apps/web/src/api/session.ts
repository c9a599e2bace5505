import type { LoginResult } from '@aiplatform/contracts';
import { i18n } from '../i18n';
import { useAuthStore } from '../stores/auth-store';
import { isTokenExpired } from '../stores/expires-in';
import { isApiError } from './api-error';
import { call } from './call';
import { navigateTo } from './notify';
import { refreshAccessToken } from './refresh';
import { endSession, isSessionEnding } from './session-end';

/**
 * Stores a fresh login. Server data is cached per signed-in user by the layout, so nothing
 * of an earlier session carries over.
 */
export function startSession(result: LoginResult): void {
  useAuthStore.getState().setSession(result);
}

/** Signs out on the server if it can, and always locally. */
export async function signOut(): Promise<void> {
  try {
    // The refresh token lets the server end the session even once the access token has expired.
    const refreshToken = useAuthStore.getState().refreshToken;
    await call('logout', { body: refreshToken ? { refreshToken } : {}, skipAuthRefresh: true, silent: true });
  } catch {
    // The local session ends regardless; a dead token or an offline server changes nothing.
  }
  useAuthStore.getState().clearSession({ leaving: true });
  navigateTo('/login');
}

/** Re-reads the signed-in user (credits, permissions, site identity) into the store. */
export async function reloadCurrentUser(): Promise<void> {
  const data = await call('getSession');
  useAuthStore.getState().setSessionData(data);
}

/**
 * Start-up check of a stored session: an expired access token is refreshed first (a failed
 * refresh means signing in again), then the user is re-read. A 401 there ends the session;
 * other failures keep the stored one so a flaky network does not sign anyone out.
 */
export async function restoreSession(): Promise<void> {
  const { accessToken, tokenExpiresAt, isAuthenticated } = useAuthStore.getState();
  if (!accessToken) {
    if (isAuthenticated) useAuthStore.getState().clearSession();
    return;
  }
  if (isTokenExpired(tokenExpiresAt)) {
    try {
      await refreshAccessToken();
    } catch {
      if (!isSessionEnding() && useAuthStore.getState().isAuthenticated) endSession(i18n.t('auth:session.expired'));
      return;
    }
  }
  try {
    useAuthStore.getState().setSessionData(await call('getSession', { skipAuthRefresh: true }));
  } catch (error) {
    if (isApiError(error) && error.status === 401) endSession(i18n.t('auth:session.expired'));
  }
}
