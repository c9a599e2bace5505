import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { SessionRepo } from './session.repo.js';

/**
 * A session's last-seen time is written at most this often: often enough for an idle
 * timeout counted in minutes, rare enough that requests do not each cost a write.
 * The timeout is therefore exact to within this interval.
 */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

/** True when a session last seen at `lastSeen` has been idle past the timeout (0 = no timeout). */
export function idleTooLong(lastSeen: string, now: Date, timeoutMinutes: number): boolean {
  return timeoutMinutes > 0 && now.getTime() - Date.parse(lastSeen) > timeoutMinutes * 60_000;
}

/**
 * `security.session_timeout_minutes`: a session with no request for that long ends.
 * Called by the auth guard on every authenticated request with the session's last-seen
 * time, which the guard's one query already returns.
 */
export class SessionActivity {
  constructor(private readonly d: { settings: SettingsService; sessions: SessionRepo; clock: Clock }) {}

  async expired(lastSeen: string): Promise<boolean> {
    const { security } = await this.d.settings.getSettings();
    return idleTooLong(lastSeen, this.d.clock.now(), security.session_timeout_minutes);
  }

  /** Answers the session's last-seen time after this request (now when it was written). */
  async check(sessionId: string, lastSeen: string): Promise<string> {
    const now = this.d.clock.now();
    const { security } = await this.d.settings.getSettings();
    if (idleTooLong(lastSeen, now, security.session_timeout_minutes)) {
      // Revoked, not only refused: its refresh token must not bring it back either.
      await this.d.sessions.revokeSession(sessionId, iso(now));
      throw new AppError('UNAUTHORIZED');
    }
    if (now.getTime() - Date.parse(lastSeen) >= ACTIVITY_WRITE_INTERVAL_MS) {
      await this.d.sessions.touchSession(sessionId, iso(now));
      return iso(now);
    }
    return lastSeen;
  }
}
