import type { RealtimeStats, UsageOverview, UserCreditsStats } from '@aiplatform/contracts';
import { request } from './http';

/*
 * The statistics of the signed-in user and the platform's live numbers. Every call is
 * silent: the cards show their own failure with a retry, and a toast every poll while
 * the server struggles would only bury the page.
 */
export const userStatsApi = {
  credits: () => request<UserCreditsStats>({ method: 'GET', url: '/stats/user-credits', silent: true }),
  realtime: () => request<RealtimeStats>({ method: 'GET', url: '/stats/realtime', silent: true }),
  myUsage: (days: number) =>
    request<UsageOverview>({ method: 'GET', url: '/stats/me', params: { days }, silent: true }),
  /** Marks the user as online for a short while (see PRESENCE_WINDOW_SECONDS). */
  heartbeat: () => request<unknown>({ method: 'POST', url: '/stats/heartbeat', silent: true }),
};
