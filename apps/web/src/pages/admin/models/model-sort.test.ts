import { describe, expect, it } from 'vitest';
import { moveRow, nextSortOrder, renumber, sortOrdersPayload } from './model-sort';

const rows = [
  { id: 1, sort_order: 0 },
  { id: 2, sort_order: 10 },
  { id: 3, sort_order: 11 },
  { id: 4, sort_order: 30 },
];

describe('moveRow', () => {
  it('moves a row down to the place it was dropped on', () => {
    expect(moveRow(rows, 1, 3).map((r) => r.id)).toEqual([2, 3, 1, 4]);
  });

  it('moves a row up', () => {
    expect(moveRow(rows, 4, 2).map((r) => r.id)).toEqual([1, 4, 2, 3]);
  });

  it('keeps the order for a drop on itself or an unknown row, without changing the input', () => {
    expect(moveRow(rows, 2, 2).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(moveRow(rows, 2, 99).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });
});

describe('sortOrdersPayload', () => {
  it('numbers the new order in steps of ten and sends only the rows that changed', () => {
    expect(sortOrdersPayload(moveRow(rows, 4, 2))).toEqual([
      { id: 4, sort_order: 10 },
      { id: 2, sort_order: 20 },
      { id: 3, sort_order: 30 },
    ]);
  });

  it('is empty when every row already sits at its number', () => {
    expect(sortOrdersPayload(renumber(rows))).toEqual([]);
  });
});

describe('renumber', () => {
  it('gives each row the sort order of its position', () => {
    expect(renumber(rows).map((r) => r.sort_order)).toEqual([0, 10, 20, 30]);
  });
});

describe('nextSortOrder', () => {
  it('places a new row after the last one, within the allowed range', () => {
    expect(nextSortOrder([])).toBe(0);
    expect(nextSortOrder(rows)).toBe(40);
    expect(nextSortOrder([{ id: 1, sort_order: 99_995 }])).toBe(100_000);
  });
});
