import { describe, expect, it } from 'vitest';
import { absoluteShareUrl, expiryAt, shareStatus } from './share-links';

describe('share links (web)', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  it('sends no expiry for never, else that many days ahead', () => {
    expect(expiryAt('never', now)).toBeNull();
    expect(expiryAt('day', now)).toBe('2026-01-02T00:00:00.000Z');
    expect(expiryAt('month', now)).toBe('2026-01-31T00:00:00.000Z');
  });
  it('makes a path absolute on this site and keeps an absolute address', () => {
    expect(absoluteShareUrl('/share/abc', 'https://chat.example')).toBe('https://chat.example/share/abc');
    expect(absoluteShareUrl('https://x.example/share/abc', 'https://chat.example')).toBe('https://x.example/share/abc');
  });
  it('names a link revoked, expired or active', () => {
    expect(shareStatus({ revoked: true, expires_at: null }, now)).toBe('revoked');
    expect(shareStatus({ revoked: false, expires_at: '2025-12-31T00:00:00.000Z' }, now)).toBe('expired');
    expect(shareStatus({ revoked: false, expires_at: '2026-02-01T00:00:00.000Z' }, now)).toBe('active');
    expect(shareStatus({ revoked: false, expires_at: null }, now)).toBe('active');
  });
});
