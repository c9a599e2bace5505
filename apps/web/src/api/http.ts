import type { SuccessEnvelope } from '@aiplatform/contracts';
import axios, { type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { currentLanguage, i18n, translateMessageKey } from '../i18n';
import { useAuthStore } from '../stores/auth-store';
import { ApiError } from './api-error';
import { capAwareMessage } from './cap-text';
import { noticeForStatus } from './error-notice';
import { noticeText, toast } from './notify';
import { refreshAccessToken } from './refresh';
import { API_BASE, SLOW_REQUEST_MS, createRequestId, isAuthCall, timeoutFor } from './request-policy';
import { accountDisabled, endSession } from './session-end';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Leave a 401 to the caller instead of refreshing (start-up check, logout). */
    skipAuthRefresh?: boolean;
    /** Show no toast at all; the caller reports or ignores the failure. */
    silent?: boolean;
  }
  interface InternalAxiosRequestConfig {
    startedAt?: number;
    retried?: boolean;
  }
}

export const http = axios.create({ baseURL: API_BASE });

http.interceptors.request.use((config) => {
  config.headers.set('X-Request-Id', createRequestId());
  config.headers.set('Accept-Language', currentLanguage());
  const token = useAuthStore.getState().accessToken;
  if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
  if (!config.timeout) config.timeout = timeoutFor(config.url);
  config.startedAt = Date.now();
  return config;
});

function logIfSlow(config: InternalAxiosRequestConfig | undefined): void {
  if (!config?.startedAt) return;
  const elapsed = Date.now() - config.startedAt;
  if (elapsed > SLOW_REQUEST_MS)
    console.warn(`Slow request: ${config.method?.toUpperCase()} ${config.url} took ${elapsed} ms`);
}

interface ErrorBody {
  error?: string;
  message?: string;
  data?: Record<string, unknown>;
}

function readErrorBody(body: unknown): ErrorBody {
  if (!body || typeof body !== 'object') return {};
  const { error, message, data } = body as Record<string, unknown>;
  return {
    ...(typeof error === 'string' ? { error } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...(data && typeof data === 'object' ? { data: data as Record<string, unknown> } : {}),
  };
}

function report(error: ApiError, config: InternalAxiosRequestConfig | undefined, text: string): ApiError {
  if (!config?.silent) {
    toast('error', text);
    error.notified = true;
  }
  return error;
}

async function retryWithFreshToken(config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
  const token = await refreshAccessToken();
  config.retried = true;
  config.headers.set('Authorization', `Bearer ${token}`);
  return http.request(config);
}

async function onFailure(error: unknown): Promise<AxiosResponse> {
  if (axios.isCancel(error)) throw new ApiError('cancelled', { kind: 'cancelled', notified: true });
  if (!axios.isAxiosError(error)) throw error;
  const config = error.config;
  logIfSlow(config);
  const response = error.response;
  if (!response) {
    const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
    const text = i18n.t(timedOut ? 'common:errors.timeout' : 'common:errors.network');
    throw report(new ApiError(text, { kind: timedOut ? 'timeout' : 'network' }), config, text);
  }
  const { status } = response;
  const body = readErrorBody(response.data);
  const authCall = isAuthCall(config?.url);
  // A 401 after signing out (a request still in flight) has no session left to refresh.
  const signedIn = useAuthStore.getState().isAuthenticated;
  if (status === 401 && config && !authCall && !config.skipAuthRefresh && signedIn) {
    if (!config.retried) return retryWithFreshToken(config);
    // The server refused even a fresh token: the session is gone.
    const text = i18n.t('auth:session.expired');
    endSession(text);
    throw new ApiError(text, { kind: 'session', status, notified: true });
  }
  const message = capAwareMessage(
    i18n.t,
    currentLanguage(),
    body.error,
    body.data,
    body.message || (body.error ? translateMessageKey(`errors.${body.error}`) : i18n.t('common:errors.unknown')),
  );
  const apiError = new ApiError(message, {
    kind: 'http',
    status,
    ...(body.error ? { code: body.error } : {}),
    ...(body.data ? { data: body.data } : {}),
  });
  if (status === 403 && body.error === 'ACCOUNT_DISABLED' && !authCall && signedIn) {
    // The start-up check has nothing on screen to keep: that one leads to the login page.
    if (config?.skipAuthRefresh) endSession(message);
    else accountDisabled(message);
    apiError.notified = true;
    throw apiError;
  }
  if (status === 400 || status === 404)
    console.warn(`API ${status}: ${config?.method?.toUpperCase()} ${config?.url}`, body);
  // A cap's refusal is toasted in the web's words; other failures keep the server's own text.
  const notice = noticeForStatus(status, body.error === 'CAP_REACHED' ? message : body.message);
  throw notice ? report(apiError, config, noticeText(notice)) : apiError;
}

http.interceptors.response.use((response) => {
  logIfSlow(response.config);
  return response;
}, onFailure);

function unwrap<T>(response: AxiosResponse<unknown>): SuccessEnvelope<T> {
  const body = response.data as Partial<SuccessEnvelope<T>> | null;
  if (!body || typeof body !== 'object' || body.success !== true) {
    throw new ApiError(i18n.t('common:errors.badResponse'), { kind: 'format', status: response.status });
  }
  return body as SuccessEnvelope<T>;
}

/** Performs a call and returns the envelope's `data`. */
export async function request<T>(config: AxiosRequestConfig): Promise<T> {
  return unwrap<T>(await http.request<unknown>(config)).data;
}

/** Performs a call and returns the whole envelope (for `message` or `pagination`). */
export async function requestEnvelope<T>(config: AxiosRequestConfig): Promise<SuccessEnvelope<T>> {
  return unwrap<T>(await http.request<unknown>(config));
}
