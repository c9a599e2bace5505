import type { UserRow } from '../../db/types.js';
import type { ChangeBus } from '../data/change-bus.js';
import type { Clock } from '../runtime/clock.js';

/** The change event of a revocation or an account change; every instance empties its cache. */
export const SESSIONS_CHANGED = 'auth-sessions';

/**
 * How long a checked session is trusted without reading it again. Revocations and
 * account changes empty the cache at once through the change bus, so this bound only
 * matters for a lost event (Redis away) or a row edited by hand.
 */
export const SESSION_CACHE_MS = 5000;

/** Beyond this many sessions the cache starts over rather than grow without bound. */
const MAX_ENTRIES = 20_000;

/** A live session's row as the auth guard reads it: the user and the session's last-seen time. */
export type SessionRow = UserRow & { session_last_used_at: string };

export interface CachedSession {
  row: SessionRow;
  /** The row without the session's last-seen time: the request's user, split off once rather than per request. */
  user: UserRow;
  expiresAt: number;
  /** The user's extra permissions, read on first need and kept as long as the entry. */
  extraPermissions?: Promise<string[]>;
}

/** A session's entry, its user split off the row (frozen: every request of the session shares it). */
export function sessionEntry(row: SessionRow, expiresAt: number): CachedSession {
  const { session_last_used_at: _lastSeen, ...user } = row;
  return { row, user: Object.freeze(user), expiresAt };
}

/**
 * In-process cache of checked sessions (access token's session id → user and session
 * row), so an authenticated request costs no query while the same session keeps coming.
 * Emptied whole by every revocation (logout, password change, disabling, session
 * timeout, ended sessions) and account change, on every instance through the bus: these
 * are rare, and emptying is cheaper than tracking who is cached where.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  /** Bumped by every invalidation: a read begun before it must not refill the cache. */
  private generation = 0;

  constructor(
    private readonly clock: Clock,
    private readonly bus?: ChangeBus,
  ) {
    bus?.subscribe(SESSIONS_CHANGED, () => this.invalidate());
  }

  /** The live entry of a session of this user, if any. */
  get(sessionId: string, userId: number): CachedSession | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now().getTime() || entry.row.id !== userId) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry;
  }

  /**
   * Reads the session through `load` and keeps the answer, unless an invalidation
   * happened meanwhile (the read may predate a revocation). A missing session is not kept.
   */
  async load(sessionId: string, load: () => Promise<SessionRow | undefined>): Promise<CachedSession | undefined> {
    const generation = this.generation;
    const startedAt = this.clock.now().getTime();
    const row = await load();
    if (!row) return undefined;
    // The expiry counts from the start of the read, so no entry is older than the bound.
    const entry = sessionEntry(row, startedAt + SESSION_CACHE_MS);
    if (generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(sessionId, entry);
    }
    return entry;
  }

  /** Forgets one session here (e.g. before re-reading it fresh). */
  drop(sessionId: string): void {
    this.entries.delete(sessionId);
  }

  /** Empties this instance's cache. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** After a committed revocation or account change: every instance empties its cache (this one at once). */
  async changed(): Promise<void> {
    this.invalidate();
    await this.bus?.publish(SESSIONS_CHANGED);
  }
}
