import { type AdminUserListQuery, USER_SORT_FIELDS, type UserSortField } from '@aiplatform/contracts';
import type { SortOrder } from 'antd/es/table/interface';

export const DEFAULT_USER_SORT = '-id';
export const DEFAULT_PAGE_SIZE = 20;

/** What the user list shows first: its filters (also used by the CSV export) and page are the list call's query. */
export const INITIAL_USER_LIST_QUERY: AdminUserListQuery = {
  page: 1,
  limit: DEFAULT_PAGE_SIZE,
  sort: DEFAULT_USER_SORT,
};

export function isUserSortField(value: unknown): value is UserSortField {
  return typeof value === 'string' && (USER_SORT_FIELDS as readonly string[]).includes(value);
}

/** antd's column sorting as the server's `sort` parameter: `field` ascending, `-field` descending. */
export function toSortParam(field: unknown, order: SortOrder | undefined): string {
  if (!order || !isUserSortField(field)) return DEFAULT_USER_SORT;
  return order === 'ascend' ? field : `-${field}`;
}

/** The sort order a column shows for the current `sort` parameter. */
export function sortOrderOf(sort: string, field: UserSortField): SortOrder {
  if (sort === field) return 'ascend';
  if (sort === `-${field}`) return 'descend';
  return null;
}

/** The filters alone, for the CSV export (which writes every matching row). */
export function exportFilters(query: AdminUserListQuery): Record<string, unknown> {
  const { page: _page, limit: _limit, ...filters } = query;
  return filters;
}
