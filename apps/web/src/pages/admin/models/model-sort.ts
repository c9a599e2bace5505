/** Gaps between sort orders leave room to place a model by hand in its form. */
export const SORT_STEP = 10;

interface Sortable {
  id: number;
  sort_order: number;
}

/** The rows with the dragged one moved to where it was dropped; unknown ids leave the order as it was. */
export function moveRow<T extends { id: number }>(rows: readonly T[], activeId: number, overId: number): T[] {
  const from = rows.findIndex((row) => row.id === activeId);
  const to = rows.findIndex((row) => row.id === overId);
  if (from < 0 || to < 0 || from === to) return [...rows];
  const next = [...rows];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(to, 0, moved);
  return next;
}

/** The rows in their new order, each with the sort order of its position (0, 10, 20, …). */
export function renumber<T extends Sortable>(rows: readonly T[]): T[] {
  return rows.map((row, index) => ({ ...row, sort_order: index * SORT_STEP }));
}

/**
 * The sort-order body for rows in their new order: only the rows whose position number
 * changed (an empty list means nothing to save).
 */
export function sortOrdersPayload(rows: readonly Sortable[]): { id: number; sort_order: number }[] {
  return rows
    .map((row, index) => ({ id: row.id, before: row.sort_order, sort_order: index * SORT_STEP }))
    .filter((row) => row.before !== row.sort_order)
    .map(({ id, sort_order }) => ({ id, sort_order }));
}

/** The sort order after the last row, for a new one. */
export function nextSortOrder(rows: readonly Sortable[]): number {
  if (rows.length === 0) return 0;
  return Math.min(100_000, Math.max(...rows.map((row) => row.sort_order)) + SORT_STEP);
}
