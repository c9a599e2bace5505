import { type CallBody, type CallResult, callPath } from '@aiplatform/contracts';
// Methods and paths only (see call.ts): the table's schemas stay out of what /login loads.
import CALL_ROUTES from 'virtual:call-routes';
import axios from 'axios';
import { currentLanguage, i18n } from '../i18n';
import { useAuthStore } from '../stores/auth-store';
import { ApiError } from './api-error';
import { toast } from './notify';
import { API_BASE, REFRESH_TIMEOUT_MS, createRequestId } from './request-policy';
import { accountDisabled, endSession } from './session-end';

/** Consecutive failed refreshes tolerated before the session counts as broken. */
export const MAX_REFRESH_ATTEMPTS = 3;

let pending: Promise<string> | null = null;
let failures = 0;

/** Reads `{ success, data: { accessToken, refreshToken, expiresIn } }`; anything else is malformed. */
export function readRefreshAnswer(body: unknown): CallResult<'refreshSession'> | null {
  if (!body || typeof body !== 'object') return null;
  const { success, data } = body as { success?: unknown; data?: unknown };
  if (success !== true || !data || typeof data !== 'object') return null;
  const { accessToken, refreshToken, expiresIn } = data as Record<string, unknown>;
  if (typeof accessToken !== 'string' || !accessToken || typeof refreshToken !== 'string' || !refreshToken) return null;
  return { accessToken, refreshToken, expiresIn: typeof expiresIn === 'string' ? expiresIn : '' };
}

/** The server's translated text when the refresh was refused because the account is disabled. */
function accountDisabledText(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (error !== 'ACCOUNT_DISABLED') return null;
  return typeof message === 'string' && message ? message : i18n.t('errors:ACCOUNT_DISABLED');
}

function sessionOver(messageKey: string): ApiError {
  failures = 0;
  endSession(i18n.t(messageKey));
  return new ApiError(i18n.t(messageKey), { kind: 'session', notified: true });
}

async function runRefresh(): Promise<string> {
  const refreshToken = useAuthStore.getState().refreshToken;
  if (!refreshToken) throw sessionOver('auth:session.noRefreshToken');
  try {
    // A bare axios call: the refresh must not pass through the interceptors that trigger it.
    const spec = CALL_ROUTES.refreshSession;
    const body: CallBody<'refreshSession'> = { refreshToken };
    const response = await axios.request<unknown>({
      method: spec.method,
      url: `${API_BASE}${callPath(spec.path)}`,
      data: body,
      timeout: REFRESH_TIMEOUT_MS,
      headers: { 'X-Request-Id': createRequestId(), 'Accept-Language': currentLanguage() },
    });
    const tokens = readRefreshAnswer(response.data);
    if (!tokens) throw new ApiError(i18n.t('auth:session.refreshFormat'), { kind: 'format' });
    failures = 0;
    useAuthStore.getState().setTokens(tokens);
    return tokens.accessToken;
  } catch (error) {
    const status = axios.isAxiosError(error) ? error.response?.status : undefined;
    const disabled = axios.isAxiosError(error) ? accountDisabledText(error.response?.data) : null;
    if (disabled) {
      failures = 0;
      accountDisabled(disabled);
      throw new ApiError(disabled, { kind: 'http', status: 403, code: 'ACCOUNT_DISABLED', notified: true });
    }
    if (status === 401 || status === 403) throw sessionOver('auth:session.expired');
    failures += 1;
    if (failures >= MAX_REFRESH_ATTEMPTS) throw sessionOver('auth:session.abnormal');
    const reason =
      error instanceof ApiError
        ? error
        : new ApiError(i18n.t(status ? 'common:errors.server' : 'common:errors.network'), {
            kind: status ? 'http' : 'network',
            ...(status ? { status } : {}),
          });
    toast('error', reason.message);
    reason.notified = true;
    throw reason;
  }
}

/**
 * Refresh tokens are single use and a replayed one revokes the session, so two tabs
 * must never spend the same one. The refresh runs under a cross-tab lock; a tab that
 * waited re-reads storage and takes the tokens another tab just obtained.
 */
async function refreshAcrossTabs(): Promise<string> {
  const startedWith = useAuthStore.getState().refreshToken;
  if (typeof navigator === 'undefined' || !navigator.locks) return runRefresh();
  return navigator.locks.request('aip-token-refresh', async () => {
    await useAuthStore.persist.rehydrate();
    const { refreshToken, accessToken } = useAuthStore.getState();
    if (refreshToken && refreshToken !== startedWith && accessToken) return accessToken;
    return runRefresh();
  });
}

/**
 * Gets a new access token. Concurrent callers share one refresh, so a burst of 401s
 * spends the single-use refresh token only once.
 */
export function refreshAccessToken(): Promise<string> {
  pending ??= refreshAcrossTabs().finally(() => {
    pending = null;
  });
  return pending;
}
