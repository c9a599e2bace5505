import { STATS_RANGES, type StatsOverviewQuery } from '@aiplatform/contracts';

export type StatsRange = (typeof STATS_RANGES)[number];

/** What the statistics page shows; kept in the address so a view can be bookmarked or shared. */
export interface StatsQuery {
  days: StatsRange;
  /** One group, or every group when absent. */
  groupId?: number;
}

export const DEFAULT_STATS_RANGE: StatsRange = 30;

function isRange(value: number): value is StatsRange {
  return (STATS_RANGES as readonly number[]).includes(value);
}

/**
 * Reads `?days=&group=`. Anything unexpected falls back to the default view rather than
 * failing: a hand-edited address should still open the page. The group is ignored for
 * those who only ever see their own group (the server forces it anyway).
 */
export function parseStatsQuery(params: URLSearchParams, mayPickGroup: boolean): StatsQuery {
  const days = Number(params.get('days'));
  const group = params.get('group') ?? '';
  const groupId = /^[1-9]\d{0,9}$/.test(group) ? Number(group) : undefined;
  return {
    days: isRange(days) ? days : DEFAULT_STATS_RANGE,
    ...(mayPickGroup && groupId !== undefined ? { groupId } : {}),
  };
}

/** The address form of a view; the default range is left out to keep the address short. */
export function statsSearchParams(query: StatsQuery): Record<string, string> {
  return {
    ...(query.days !== DEFAULT_STATS_RANGE ? { days: String(query.days) } : {}),
    ...(query.groupId !== undefined ? { group: String(query.groupId) } : {}),
  };
}

/** The server's query parameters for the overview and the CSV export. */
export function statsApiQuery(query: StatsQuery): StatsOverviewQuery {
  return { days: query.days, ...(query.groupId !== undefined ? { group_id: query.groupId } : {}) };
}
