import { call } from './call';

/*
 * The statistics of the signed-in user and the platform's live numbers. Every call is
 * silent: the cards show their own failure with a retry, and a toast every poll while
 * the server struggles would only bury the page.
 */
export const userStatsApi = {
  credits: () => call('myCreditsStats', { silent: true }),
  realtime: () => call('realtimeStats', { silent: true }),
  myUsage: (days: number) => call('myUsage', { query: { days }, silent: true }),
  /** Marks the user as online for a short while (see PRESENCE_WINDOW_SECONDS). */
  heartbeat: () => call('heartbeat', { silent: true }),
};
