import type { UsageOverview } from '@aiplatform/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { adminKeys } from '../../../api/query-keys';
import { useGroupOptions } from '../shared/use-group-options';
import { type GroupOption, mergeGroupOptions } from './group-options';

/**
 * Groups to pick from on the statistics page: the groups list plus every group named by
 * the overview on screen or by any other loaded so far (kept in the query cache).
 */
export function useStatsGroupOptions(enabled: boolean, latest: UsageOverview | undefined): GroupOption[] {
  const { options } = useGroupOptions(enabled);
  const queryClient = useQueryClient();
  return useMemo(() => {
    const cached = queryClient
      .getQueriesData<UsageOverview>({ queryKey: adminKeys.stats })
      .flatMap(([, overview]) => overview?.groups ?? []);
    return mergeGroupOptions(options, [...(latest?.groups ?? []), ...cached]);
  }, [options, queryClient, latest]);
}
