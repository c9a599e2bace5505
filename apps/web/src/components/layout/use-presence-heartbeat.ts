import { STATS_POLL_SECONDS } from '@aiplatform/contracts';
import { useEffect } from 'react';
import { userStatsApi } from '../../api/user-stats';
import { documentVisibility, startHeartbeat } from './presence-heartbeat';

/** A lost beat only makes the user look offline for a moment; nothing to tell them. */
function beat(): void {
  userStatsApi.heartbeat().catch(() => undefined);
}

/**
 * Tells the server this user is here, for the "online now" figure: while the signed-in
 * frame is mounted and the tab is visible, once at the start and every STATS_POLL_SECONDS.
 */
export function usePresenceHeartbeat(): void {
  useEffect(() => startHeartbeat(beat, STATS_POLL_SECONDS * 1000, documentVisibility), []);
}
