import { STATS_POLL_SECONDS } from '@aiplatform/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchMyCaps, fetchNotifications, markNotificationRead } from './caps';
import { queryKeys } from './query-keys';

const POLL_MS = STATS_POLL_SECONDS * 1000;

/**
 * The caps in force for the signed-in user, read by the dashboard, the composer and the
 * profile; a chat turn refreshes it at once (it sits under the statistics' prefix).
 */
export function useMyCaps() {
  return useQuery({ queryKey: queryKeys.myCaps, queryFn: fetchMyCaps, staleTime: POLL_MS, refetchOnWindowFocus: true });
}

/** The bell's notifications; polled like the statistics so an alert from elsewhere arrives. */
export function useNotifications() {
  return useQuery({
    queryKey: queryKeys.notifications,
    queryFn: fetchNotifications,
    refetchInterval: POLL_MS,
    staleTime: POLL_MS / 2,
    refetchOnWindowFocus: true,
  });
}

/** Marks one notification read; the list is read again so the count and the row agree. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}
