import type { Group } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { formValuesOf, groupBodyOf } from './group-form-values';

const group = {
  name: 'Team',
  description: '',
  color: '#1677ff',
  sort_order: 0,
  status: 'active',
  user_limit: null,
  permissions: ['api.keys'],
} as unknown as Group;

describe('the group form', () => {
  it('sends the granted permissions only from an editor who may grant them', () => {
    const values = formValuesOf(group);
    expect(values.permissions).toEqual(['api.keys']);
    expect(groupBodyOf(values, true).permissions).toEqual(['api.keys']);
    expect(groupBodyOf({ ...values, permissions: [] }, true).permissions).toEqual([]);
    expect('permissions' in groupBodyOf(values)).toBe(false);
  });

  it('starts a new group with no permissions', () => {
    expect(formValuesOf(null).permissions).toEqual([]);
  });
});
