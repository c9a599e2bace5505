import { describe, expect, it } from 'vitest';
import { noticeForStatus } from './error-notice';
import { createRequestId, isAuthCall, timeoutFor } from './request-policy';

describe('isAuthCall', () => {
  it.each([
    '/auth/login',
    '/auth/login-by-code',
    '/auth/login-by-email-password',
    '/auth/register',
    '/auth/refresh',
    '/auth/send-email-code',
    '/auth/check-email',
    '/auth/check-username',
    '/api/auth/refresh',
    'auth/login?x=1',
  ])('%s is exempt from the refresh flow', (url) => {
    expect(isAuthCall(url)).toBe(true);
  });

  it.each([
    '/auth/me',
    '/auth/logout',
    '/auth/profile',
    '/auth/credit-history',
    '/admin/users',
    '/chat/auth/login',
    undefined,
  ])('%s is not', (url) => {
    expect(isAuthCall(url)).toBe(false);
  });
});

describe('timeoutFor', () => {
  it('allows 30 s for account and admin calls and no limit otherwise', () => {
    expect(timeoutFor('/auth/me')).toBe(30_000);
    expect(timeoutFor('/admin/modules/user-modules')).toBe(30_000);
    expect(timeoutFor('/chat/conversations')).toBe(0);
    expect(timeoutFor(undefined)).toBe(0);
  });
});

describe('createRequestId', () => {
  it('makes distinct ids the server accepts', () => {
    const a = createRequestId();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(createRequestId()).not.toBe(a);
  });
});

describe('noticeForStatus', () => {
  it('leaves 400, 401, 404 and 409 to the caller', () => {
    for (const status of [400, 401, 404, 409]) expect(noticeForStatus(status, 'x')).toBeNull();
  });
  it('prefers the server message for 403, 429 and 500', () => {
    expect(noticeForStatus(403, 'Nope')).toEqual({ text: 'Nope' });
    // The server says how long to wait, or to sign in with an emailed code instead.
    expect(noticeForStatus(429, '登录失败次数过多，请 2 秒后再试')).toEqual({
      text: '登录失败次数过多，请 2 秒后再试',
    });
    expect(noticeForStatus(429, '')).toEqual({ key: 'common:errors.tooManyRequests' });
    expect(noticeForStatus(403, '')).toEqual({ key: 'common:errors.forbidden' });
    expect(noticeForStatus(500, 'Broken')).toEqual({ text: 'Broken' });
    expect(noticeForStatus(500, undefined)).toEqual({ key: 'common:errors.internal' });
  });
  it('uses fixed texts for the other 5xx', () => {
    for (const status of [502, 503, 504])
      expect(noticeForStatus(status, 'x')).toEqual({ key: 'common:errors.unavailable' });
    expect(noticeForStatus(507, 'x')).toEqual({ key: 'common:errors.server' });
  });
});
