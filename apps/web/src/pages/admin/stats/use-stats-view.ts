import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { type StatsQuery, parseStatsQuery, statsApiQuery, statsSearchParams } from './stats-query';

/** The view chosen in the address (`?days=&group=`) and a way to change it. */
export function useStatsView(mayPickGroup: boolean): [StatsQuery, (next: StatsQuery) => void] {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseStatsQuery(params, mayPickGroup), [params, mayPickGroup]);
  // Replacing the entry: stepping back leaves the page instead of replaying every filter click.
  const change = useCallback((next: StatsQuery) => setParams(statsSearchParams(next), { replace: true }), [setParams]);
  return [query, change];
}

/** The overview of one view; the previous numbers stay on screen while another view loads. */
export function useUsageOverview(query: StatsQuery) {
  const apiQuery = statsApiQuery(query);
  return useQuery({
    queryKey: adminKeys.statsOverview(apiQuery),
    queryFn: () => call('statsOverview', { query: apiQuery }),
    placeholderData: keepPreviousData,
  });
}
