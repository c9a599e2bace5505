import { describe, expect, it } from 'vitest';
import { openingCreditsSource } from './new-user-credits';

const pooled = { id: 2, name: 'Sales', credits_pool: 5000, credits_pool_remaining: 1200 };
const plain = { id: 3, name: 'Ops', credits_pool: 0, credits_pool_remaining: 0 };
const groups = [pooled, plain];
const superAdmin = { setGroup: true, setCredits: true };
const groupAdmin = { setGroup: false, setCredits: false };

describe('openingCreditsSource', () => {
  it('names the pool of the chosen group when it has one, the site otherwise', () => {
    expect(openingCreditsSource(groups, 2, null, superAdmin)).toEqual({ kind: 'pool', group: pooled });
    expect(openingCreditsSource(groups, 3, null, superAdmin)).toEqual({ kind: 'site' });
    // No group chosen: the default group, unknown to the form.
    expect(openingCreditsSource(groups, undefined, 2, superAdmin)).toBeNull();
  });

  it("uses a group administrator's own group, and gives no credits outside a pool", () => {
    expect(openingCreditsSource(groups, undefined, 2, groupAdmin)).toEqual({ kind: 'pool', group: pooled });
    expect(openingCreditsSource(groups, 3, 2, groupAdmin)).toEqual({ kind: 'pool', group: pooled });
    expect(openingCreditsSource(groups, undefined, 3, groupAdmin)).toEqual({ kind: 'none' });
    expect(openingCreditsSource(groups, undefined, null, groupAdmin)).toEqual({ kind: 'none' });
    // Groups not loaded yet: nothing said.
    expect(openingCreditsSource([], undefined, 2, groupAdmin)).toBeNull();
  });
});
