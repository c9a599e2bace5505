import { describe, expect, it } from 'vitest';
import { groupFormValuesOf, groupIdsOf } from './catalog-groups';

describe('the groups of a catalog item in its form', () => {
  it('starts a new item, or one without groups, at every group', () => {
    expect(groupFormValuesOf(null)).toEqual({ group_scope: 'all', group_ids: [] });
    expect(groupFormValuesOf({ group_ids: [] })).toEqual({ group_scope: 'all', group_ids: [] });
  });

  it('shows the chosen groups of a restricted item', () => {
    expect(groupFormValuesOf({ group_ids: [2, 5] })).toEqual({ group_scope: 'selected', group_ids: [2, 5] });
  });

  it('sends every group as an empty list, whatever was chosen before', () => {
    expect(groupIdsOf({ group_scope: 'all', group_ids: [4] })).toEqual([]);
    expect(groupIdsOf({ group_scope: 'selected', group_ids: [4, 7] })).toEqual([4, 7]);
  });
});
