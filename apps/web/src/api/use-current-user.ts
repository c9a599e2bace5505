import type { SessionData } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../stores/auth-store';
import { call } from './call';
import { queryKeys } from './query-keys';

/**
 * Re-reads the signed-in user when a page that shows balances opens, so credits and
 * permissions are current; the store keeps serving the last known values meanwhile.
 */
export function useCurrentUserRefresh(): void {
  useQuery({
    queryKey: queryKeys.me,
    queryFn: async (): Promise<SessionData> => {
      const data = await call('getSession');
      useAuthStore.getState().setSessionData(data);
      return data;
    },
    staleTime: 30_000,
  });
}
