import { describe, expect, it } from 'vitest';
import { newMemberPoolGroup } from './new-user-pool';

const pooled = { id: 2, name: 'Sales', credits_pool: 5000 };
const plain = { id: 3, name: 'Ops', credits_pool: 0 };
const groups = [pooled, plain];

describe('newMemberPoolGroup', () => {
  it('names the chosen group when it has a pool', () => {
    expect(newMemberPoolGroup(groups, 2, null, true)).toBe(pooled);
    expect(newMemberPoolGroup(groups, 3, null, true)).toBeNull();
    expect(newMemberPoolGroup(groups, undefined, 2, true)).toBeNull();
  });

  it("uses a group administrator's own group", () => {
    expect(newMemberPoolGroup(groups, undefined, 2, false)).toBe(pooled);
    expect(newMemberPoolGroup(groups, 3, 2, false)).toBe(pooled);
    expect(newMemberPoolGroup(groups, undefined, null, false)).toBeNull();
    expect(newMemberPoolGroup([], undefined, 2, false)).toBeNull();
  });
});
