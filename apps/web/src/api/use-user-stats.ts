import { STATS_POLL_SECONDS } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from './query-keys';
import { userStatsApi } from './user-stats';

const POLL_MS = STATS_POLL_SECONDS * 1000;

/** Days of personal usage the dashboard shows. */
export const MY_USAGE_DAYS = 30;

/**
 * The user's credits as the statistics see them. Read by the dashboard and by the header
 * bell on every page, so it is re-read on returning to the tab once a poll period old;
 * a chat turn refreshes it at once (see the chat's send).
 */
export function useUserCreditsStats() {
  return useQuery({
    queryKey: queryKeys.userCreditsStats,
    queryFn: userStatsApi.credits,
    staleTime: POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/**
 * The platform's live numbers, polled every STATS_POLL_SECONDS while someone shows them.
 * react-query skips a poll while the tab is hidden (refetchIntervalInBackground stays
 * false) and catches up when it becomes visible again.
 */
export function useRealtimeStats() {
  return useQuery({
    queryKey: queryKeys.realtimeStats,
    queryFn: userStatsApi.realtime,
    refetchInterval: POLL_MS,
    staleTime: POLL_MS / 2,
    refetchOnWindowFocus: true,
  });
}

/** The signed-in user's own use per day and per model. */
export function useMyUsage(days = MY_USAGE_DAYS) {
  return useQuery({
    queryKey: queryKeys.myUsage(days),
    queryFn: () => userStatsApi.myUsage(days),
    staleTime: 60_000,
  });
}
