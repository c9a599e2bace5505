import type { AdminUser } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { changedFields, editValuesOf } from './user-edit-body';

const user = {
  id: 7,
  username: 'alice',
  email: 'alice@example.com',
  phone: null,
  group_id: 2,
  group_pinned: false,
  remark: null,
  token_quota: 0,
  role: 'user',
  extra_permissions: [],
} as unknown as AdminUser;

describe('the user edit form', () => {
  it('sends nothing when nothing changed, so no right beyond editing is needed', () => {
    expect(changedFields(user, editValuesOf(user))).toEqual({});
  });

  it('sends the group pin when it is switched, and only then', () => {
    expect(changedFields(user, { ...editValuesOf(user), group_pinned: true })).toEqual({ group_pinned: true });
    const pinned = { ...user, group_pinned: true };
    expect(changedFields(pinned, { ...editValuesOf(pinned), group_pinned: false })).toEqual({ group_pinned: false });
  });
});
