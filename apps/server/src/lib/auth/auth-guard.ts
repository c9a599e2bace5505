import { effectivePermissions } from '@aiplatform/contracts';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { UserRow } from '../../db/types.js';
import { type CachedSession, type SessionCache, type SessionRow, sessionEntry } from './session-cache.js';
import type { Clock } from '../runtime/clock.js';
import { AppError } from '../http/errors.js';
import type { AccessTokens } from './tokens.js';

export interface AuthContext {
  user: UserRow;
  sessionId: string;
  /** Loaded on first use: most requests only need the role. */
  permissions(): Promise<string[]>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** The signed-in user of a guarded route; routes behind `authenticate` can rely on it. */
export function currentAuth(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError('UNAUTHORIZED');
  return req.auth;
}

/** What the guard needs of the session timeout (SessionActivity). */
export interface SessionActivityCheck {
  /** True when a session last seen then would have timed out by now. */
  expired(lastSeen: string): Promise<boolean>;
  /** Ends a timed-out session (throws), records activity; answers the session's last-seen time now. */
  check(sessionId: string, lastSeen: string): Promise<string>;
}

/** What the guard reads of accounts (the users repo provides it). */
export interface SessionUsers {
  /** The active session's user and its last-seen time, if the session is live. */
  findForSession(userId: number, sessionId: string): Promise<SessionRow | undefined>;
  isDisabled(userId: number): Promise<boolean>;
  /** Permissions granted to the user beyond the role's: their own and their group's. */
  grantedPermissions(userId: number): Promise<string[]>;
}

export interface Guards {
  authenticate: preHandlerAsyncHookHandler;
  /** Like authenticate, but a missing or dead token leaves the request anonymous. */
  authenticateIfPresent: preHandlerAsyncHookHandler;
}

/**
 * Bearer-token guards. The token must verify, its session must not be revoked and
 * the account must be active: logout, password change and disabling take effect at once.
 */
export function createGuards(
  tokens: AccessTokens,
  users: SessionUsers,
  clock: Clock,
  /** Ends sessions idle past the configured timeout and records activity. */
  activity?: SessionActivityCheck,
  /** Told of every authenticated request (presence); must be cheap and never throw. */
  seen?: (userId: number) => void,
  /** Checked sessions kept for a few seconds (emptied by every revocation); without it each request reads. */
  cache?: SessionCache,
): Guards {
  const read = (userId: number, sessionId: string) => users.findForSession(userId, sessionId);
  /** The session's entry: from the cache, or read (and kept) when absent or `fresh` is asked. */
  const lookUp = async (userId: number, sessionId: string, fresh: boolean): Promise<CachedSession | undefined> => {
    if (!cache) {
      const row = await read(userId, sessionId);
      return row ? sessionEntry(row, 0) : undefined;
    }
    if (fresh) cache.drop(sessionId);
    return cache.get(sessionId, userId) ?? (await cache.load(sessionId, () => read(userId, sessionId)));
  };

  const authenticate: preHandlerAsyncHookHandler = async (req) => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw new AppError('UNAUTHORIZED');
    const claims = await tokens.verify(token, clock.now());
    let entry = await lookUp(claims.userId, claims.sid, false);
    // A cached last-seen time may be older than the stored one (another instance's
    // request): a session that looks idle is read again before it is ended.
    if (entry && cache && activity && (await activity.expired(entry.row.session_last_used_at))) {
      entry = await lookUp(claims.userId, claims.sid, true);
    }
    if (!entry) {
      // Disabling an account ends its sessions: the holder of one is told why rather than
      // sent to sign in again (read only on this path, never for a live session).
      if (await users.isDisabled(claims.userId)) throw new AppError('ACCOUNT_DISABLED');
      throw new AppError('UNAUTHORIZED');
    }
    const { user } = entry;
    const lastSeen = entry.row.session_last_used_at;
    if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    if (activity) entry.row.session_last_used_at = await activity.check(claims.sid, lastSeen);
    seen?.(user.id);
    const cached = entry;
    req.auth = {
      user,
      sessionId: claims.sid,
      permissions: async () =>
        effectivePermissions(user.role, await (cached.extraPermissions ??= extraPermissionsOf(user.id, cached))),
    };
  };
  /** Read once per cache entry; a failed read is not kept. */
  const extraPermissionsOf = (userId: number, entry: CachedSession) =>
    users.grantedPermissions(userId).catch((err: unknown) => {
      entry.extraPermissions = undefined;
      throw err;
    });
  return {
    authenticate,
    authenticateIfPresent: async function (req, reply) {
      try {
        await authenticate.call(this, req, reply);
      } catch {
        req.auth = undefined;
      }
    },
  };
}
