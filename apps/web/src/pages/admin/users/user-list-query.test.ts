import { describe, expect, it } from 'vitest';
import { INITIAL_USER_LIST_QUERY, exportFilters, sortOrderOf, toSortParam } from './user-list-query';

describe('user list sorting', () => {
  it('turns column sorting into the sort parameter', () => {
    expect(toSortParam('username', 'ascend')).toBe('username');
    expect(toSortParam('credits_remaining', 'descend')).toBe('-credits_remaining');
    expect(toSortParam('username', null)).toBe('-id');
    expect(toSortParam('email', 'ascend')).toBe('-id');
  });

  it('shows the order of the sorted column only', () => {
    expect(sortOrderOf('-created_at', 'created_at')).toBe('descend');
    expect(sortOrderOf('created_at', 'created_at')).toBe('ascend');
    expect(sortOrderOf('-created_at', 'username')).toBeNull();
  });

  it('exports with the filters but not the page', () => {
    expect(exportFilters({ ...INITIAL_USER_LIST_QUERY, page: 3, search: 'al', role: 'user' })).toEqual({
      sort: '-id',
      search: 'al',
      role: 'user',
    });
  });
});
