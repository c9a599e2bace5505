import { describe, expect, it } from 'vitest';
import { claimRows, isRefused, outcomePhrases, previewFromFragment } from './sso-preview-format';

describe('the test sign-in in words', () => {
  it('names the existing account, the mapped group and role', () => {
    expect(
      outcomePhrases({ account: 'existing', user_id: 12, group_id: 3, group_name: 'Engineering', role: 'admin' }),
    ).toEqual([
      { key: 'admin:identity.preview.outcome.existing', values: { id: 12 } },
      { key: 'admin:identity.preview.outcome.group', values: { group: 'Engineering' } },
      { key: 'admin:identity.preview.outcome.role.admin' },
    ]);
  });

  it('puts a new account in its mapped group in one sentence, and says when no entry matches', () => {
    expect(outcomePhrases({ account: 'create', group_id: 3, group_name: 'Eng', role: null })).toEqual([
      { key: 'admin:identity.preview.outcome.createInGroup', values: { group: 'Eng' } },
    ]);
    expect(outcomePhrases({ account: 'create', group_id: null, group_name: null, role: 'user' })).toEqual([
      { key: 'admin:identity.preview.outcome.create' },
      { key: 'admin:identity.preview.outcome.noGroup' },
      { key: 'admin:identity.preview.outcome.role.user' },
    ]);
  });

  it('gives only the reason of a refusal', () => {
    const conflict = { account: 'conflict', group_id: 3, group_name: 'Eng', role: 'admin' } as const;
    expect(outcomePhrases(conflict)).toEqual([{ key: 'admin:identity.preview.outcome.conflict' }]);
    expect(isRefused(conflict)).toBe(true);
    expect(isRefused({ account: 'link', user_id: 1, group_id: null, group_name: null, role: null })).toBe(false);
  });

  it('shows claims sorted, with non-text values as JSON', () => {
    expect(claimRows({ sub: 'a', groups: ['x', 'y'], email_verified: true })).toEqual([
      { name: 'email_verified', value: 'true' },
      { name: 'groups', value: '["x","y"]' },
      { name: 'sub', value: 'a' },
    ]);
  });

  it('reads the code and provider from the address fragment', () => {
    expect(previewFromFragment('#preview=abc&provider=7')).toEqual({ code: 'abc', providerId: 7 });
    expect(previewFromFragment('#preview=abc')).toBeNull();
    expect(previewFromFragment('')).toBeNull();
  });
});
