import { z } from 'zod';
import {
  AvailabilitySchema,
  ChangePasswordBodySchema,
  CheckEmailBodySchema,
  CheckUsernameBodySchema,
  CreditHistoryResultSchema,
  LoginBodySchema,
  LoginByCodeBodySchema,
  LoginByEmailPasswordBodySchema,
  LoginResultSchema,
  LogoutBodySchema,
  RefreshBodySchema,
  RefreshResultSchema,
  RegisterBodySchema,
  RegisterResultSchema,
  SendEmailCodeBodySchema,
  SessionDataSchema,
  UpdateProfileBodySchema,
  UserSchema,
} from '../auth.js';
import { PageQuerySchema } from '../fields.js';

import type { CallSpec } from './spec.js';

/** Signing in, registration, the session and the signed-in account's own profile. */
export const AUTH_CALLS = {
  // Three ways to sign in; each answers the session data with a fresh pair of tokens.
  login: { method: 'POST', path: '/auth/login', access: 'public', body: LoginBodySchema, response: LoginResultSchema },
  loginByCode: {
    method: 'POST',
    path: '/auth/login-by-code',
    access: 'public',
    body: LoginByCodeBodySchema,
    response: LoginResultSchema,
  },
  loginByEmailPassword: {
    method: 'POST',
    path: '/auth/login-by-email-password',
    access: 'public',
    body: LoginByEmailPasswordBodySchema,
    response: LoginResultSchema,
  },
  /** Mails a code for signing in, or (`purpose: 'register'`) for signing up; the message confirms it. */
  sendEmailCode: {
    method: 'POST',
    path: '/auth/send-email-code',
    access: 'public',
    body: SendEmailCodeBodySchema,
    response: z.null(),
  },
  /** Spends the single-use refresh token for a new pair. */
  refreshSession: {
    method: 'POST',
    path: '/auth/refresh',
    access: 'public',
    body: RefreshBodySchema,
    response: RefreshResultSchema,
  },
  /** Ends the session of the access token when one is sent, and that of the refresh token. */
  logout: { method: 'POST', path: '/auth/logout', access: 'optional', body: LogoutBodySchema, response: z.null() },
  /** The signed-in user, their permissions and the site identity they see. */
  getSession: { method: 'GET', path: '/auth/me', access: 'signedIn', response: SessionDataSchema },
  updateProfile: {
    method: 'PUT',
    path: '/auth/profile',
    access: 'signedIn',
    body: UpdateProfileBodySchema,
    response: z.object({ user: UserSchema }),
  },
  /** Ends the account's other sessions. */
  changePassword: {
    method: 'PUT',
    path: '/auth/password',
    access: 'signedIn',
    body: ChangePasswordBodySchema,
    response: z.null(),
  },
  /**
   * The user's own credit ledger, newest first. Its answer predates the shared list shape:
   * `data` holds `history` and a short `pagination` (page, limit, total).
   */
  myCreditHistory: {
    method: 'GET',
    path: '/auth/credit-history',
    access: 'signedIn',
    query: PageQuerySchema,
    response: CreditHistoryResultSchema,
  },
  register: {
    method: 'POST',
    path: '/auth/register',
    access: 'public',
    body: RegisterBodySchema,
    response: RegisterResultSchema,
    status: 201,
  },
  // Availability checks for the sign-up form, while the user types.
  checkEmail: {
    method: 'POST',
    path: '/auth/check-email',
    access: 'public',
    body: CheckEmailBodySchema,
    response: AvailabilitySchema,
  },
  checkUsername: {
    method: 'POST',
    path: '/auth/check-username',
    access: 'public',
    body: CheckUsernameBodySchema,
    response: AvailabilitySchema,
  },
} as const satisfies Record<string, CallSpec>;
