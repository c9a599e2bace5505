import { describe, expect, it } from 'vitest';
import { creatableScopes } from './knowledge-scope';

describe('creatableScopes', () => {
  it('offers a group knowledge base to group administrators and super administrators only', () => {
    expect(creatableScopes({ role: 'user', group_id: 2 })).toEqual(['personal']);
    expect(creatableScopes({ role: 'admin', group_id: 2 })).toEqual(['personal', 'group']);
    expect(creatableScopes({ role: 'admin', group_id: null })).toEqual(['personal']);
    expect(creatableScopes({ role: 'super_admin', group_id: null })).toEqual(['personal', 'group']);
    expect(creatableScopes(null)).toEqual(['personal']);
  });
});
