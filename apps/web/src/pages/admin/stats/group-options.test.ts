import { describe, expect, it } from 'vitest';
import { mergeGroupOptions } from './group-options';

const usage = (group_id: number | null, group_name: string | null) => ({
  group_id,
  group_name,
  group_color: null,
  messages: 2,
  tokens: 10,
  credits: 5,
  active_users: 1,
});

describe('group picker options', () => {
  it('add the groups the statistics named that the list missed, once each', () => {
    const listed = [{ value: 1, label: 'Default' }];
    expect(
      mergeGroupOptions(listed, [usage(1, 'Default'), usage(140, 'Sales'), usage(140, 'Sales'), usage(null, null)]),
    ).toEqual([
      { value: 1, label: 'Default' },
      { value: 140, label: 'Sales' },
    ]);
  });

  it('keep the list as it is when it already has every group', () => {
    const listed = [
      { value: 2, label: 'B' },
      { value: 1, label: 'A' },
    ];
    expect(mergeGroupOptions(listed, [usage(1, 'A')])).toEqual(listed);
  });
});
