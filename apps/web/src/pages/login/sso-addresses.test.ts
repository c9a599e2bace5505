import { describe, expect, it } from 'vitest';
import { newSsoBinding, ssoCompletion, ssoErrorCode, ssoStartUrl } from './sso-addresses';

describe('single sign-on on the sign-in page', () => {
  it('shows only what looks like an error code from ?sso_error', () => {
    expect(ssoErrorCode('?sso_error=SSO_EMAIL_CONFLICT')).toBe('SSO_EMAIL_CONFLICT');
    expect(ssoErrorCode('?sso_error=<script>')).toBeNull();
    expect(ssoErrorCode('?sso_error=Your%20account%20was%20deleted')).toBeNull();
    expect(ssoErrorCode('?redirect=/chat')).toBeNull();
  });

  it('asks the provider to come back to the page that was asked for', () => {
    expect(ssoStartUrl('corp', '/chat?x=1', 'b1')).toBe('/api/auth/sso/corp/start?redirect=%2Fchat%3Fx%3D1&binding=b1');
  });

  it('binds a sign-in with 32 random bytes in the form the server accepts', () => {
    const binding = newSsoBinding((bytes) => bytes.fill(0xfb));
    expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSsoBinding()).not.toBe(newSsoBinding());
  });

  it('reads the one-time code and the landing page from the fragment', () => {
    expect(ssoCompletion('#code=abc&redirect=%2Fchat')).toEqual({ code: 'abc', redirect: '/chat' });
    expect(ssoCompletion('')).toEqual({ code: null, redirect: null });
  });
});
