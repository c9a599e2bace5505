import { describe, expect, it } from 'vitest';
import { afterSignInPath, loginPathFor, safeRedirectTarget } from './redirect-target';

describe('safeRedirectTarget', () => {
  it('keeps in-app paths with their query and hash', () => {
    expect(safeRedirectTarget('/profile?tab=credits')).toBe('/profile?tab=credits');
    expect(safeRedirectTarget('/chat?c=42#end')).toBe('/chat?c=42#end');
    expect(safeRedirectTarget('/admin/users')).toBe('/admin/users');
    expect(safeRedirectTarget('/')).toBe('/');
  });

  it('normalises, so the checked path is the opened one', () => {
    expect(safeRedirectTarget('/admin/../profile')).toBe('/profile');
  });

  it('refuses nothing, relative paths and absolute URLs', () => {
    for (const value of [null, undefined, '', 'profile', 'http://evil.com/', 'https://evil.com', 'javascript:alert(1)'])
      expect(safeRedirectTarget(value), String(value)).toBeNull();
  });

  it('refuses paths a browser reads as another host', () => {
    for (const value of [
      '//evil.com',
      '//evil.com/profile',
      '/\\evil.com',
      '/\t/evil.com',
      '/\n/evil.com',
      '/.//evil.com',
    ])
      expect(safeRedirectTarget(value), JSON.stringify(value)).toBeNull();
  });

  it('refuses the sign-in screens, however written', () => {
    for (const value of ['/login', '/register', '/login?redirect=%2Fprofile', '/LOGIN/', '/register#x', '/a/../login'])
      expect(safeRedirectTarget(value), value).toBeNull();
    expect(safeRedirectTarget('/login-help')).toBe('/login-help');
  });
});

describe('loginPathFor', () => {
  it('names the requested page in ?redirect=', () => {
    expect(loginPathFor('/profile?tab=credits')).toBe('/login?redirect=%2Fprofile%3Ftab%3Dcredits');
  });

  it('leaves the parameter out for the dashboard and for unacceptable targets', () => {
    expect(loginPathFor('/dashboard')).toBe('/login');
    expect(loginPathFor('//evil.com')).toBe('/login');
    expect(loginPathFor('/login')).toBe('/login');
  });
});

describe('afterSignInPath', () => {
  it('returns to the page named in ?redirect=', () => {
    expect(afterSignInPath('?redirect=%2Fprofile%3Ftab%3Dcredits')).toBe('/profile?tab=credits');
    expect(afterSignInPath(loginPathFor('/chat?c=7').slice('/login'.length))).toBe('/chat?c=7');
  });

  it('falls back to the dashboard', () => {
    expect(afterSignInPath('')).toBe('/dashboard');
    expect(afterSignInPath('?redirect=https%3A%2F%2Fevil.com')).toBe('/dashboard');
    expect(afterSignInPath('?redirect=%2F%2Fevil.com')).toBe('/dashboard');
    expect(afterSignInPath('?redirect=%2Fregister')).toBe('/dashboard');
  });
});
