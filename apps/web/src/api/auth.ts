import type { CreditHistoryResult, EmailCodePurpose, LoginResult, SessionData, User } from '@aiplatform/contracts';
import { request, requestEnvelope } from './http';

export interface RegisterInput {
  email: string;
  username: string;
  phone: string | null;
  password: string;
  confirmPassword: string;
  /** The emailed code, while the settings require one at sign-up. */
  code?: string;
}

export interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The account calls of the API contract (auth and session), one function each. */
export const authApi = {
  login: (body: { account: string; password: string }) =>
    request<LoginResult>({ method: 'POST', url: '/auth/login', data: body }),
  loginByCode: (body: { email: string; code: string }) =>
    request<LoginResult>({ method: 'POST', url: '/auth/login-by-code', data: body }),
  loginByEmailPassword: (body: { email: string; password: string; code: string }) =>
    request<LoginResult>({ method: 'POST', url: '/auth/login-by-email-password', data: body }),
  /** Resolves to the server's confirmation text. */
  sendEmailCode: async (email: string, purpose: EmailCodePurpose = 'login') =>
    (
      await requestEnvelope<null>({
        method: 'POST',
        url: '/auth/send-email-code',
        data: purpose === 'register' ? { email, purpose } : { email },
      })
    ).message,
  /** Failures are ignored by the caller: signing out always clears the local session. */
  /** The refresh token lets the server end the session even when the access token has expired. */
  logout: (refreshToken: string | null) =>
    request<null>({
      method: 'POST',
      url: '/auth/logout',
      data: refreshToken ? { refreshToken } : {},
      skipAuthRefresh: true,
      silent: true,
    }),
  me: (options: { skipAuthRefresh?: boolean } = {}) =>
    request<SessionData>({ method: 'GET', url: '/auth/me', ...options }),
  updateProfile: (body: { username: string; phone: string | null }) =>
    request<{ user: User }>({ method: 'PUT', url: '/auth/profile', data: body }),
  changePassword: (body: ChangePasswordInput) => request<null>({ method: 'PUT', url: '/auth/password', data: body }),
  creditHistory: (page: number, limit: number) =>
    request<CreditHistoryResult>({ method: 'GET', url: '/auth/credit-history', params: { page, limit } }),
  register: (body: RegisterInput) =>
    request<{ id: number; username: string; email: string }>({ method: 'POST', url: '/auth/register', data: body }),
  // Availability checks run while typing; their failures stay quiet and the form decides.
  checkEmail: (email: string) =>
    request<{ available: boolean }>({ method: 'POST', url: '/auth/check-email', data: { email }, silent: true }),
  checkUsername: (username: string) =>
    request<{ available: boolean }>({ method: 'POST', url: '/auth/check-username', data: { username }, silent: true }),
  uploadAvatar: (file: Blob) => {
    const form = new FormData();
    form.append('avatar', file);
    return request<{ user: User; url: string }>({ method: 'POST', url: '/auth/avatar', data: form });
  },
};
