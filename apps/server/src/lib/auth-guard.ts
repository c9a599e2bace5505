import { ROLE_PERMISSIONS, type Role, hasAnyPermission, hasRole } from '@aiplatform/contracts';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { UserRow } from '../db/types.js';
import type { UsersRepo } from '../modules/users/users.repo.js';
import { effectivePermissions } from '../modules/users/user.presenter.js';
import type { Clock } from './clock.js';
import { AppError } from './errors.js';
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

export interface Guards {
  authenticate: preHandlerAsyncHookHandler;
  /** Like authenticate, but a missing or dead token leaves the request anonymous. */
  authenticateIfPresent: preHandlerAsyncHookHandler;
  requirePermission(...anyOf: string[]): preHandlerAsyncHookHandler;
  requireRole(roles: Role | readonly Role[]): preHandlerAsyncHookHandler;
}

/**
 * Bearer-token guards. The token must verify, its session must not be revoked and
 * the account must be active: logout, password change and disabling take effect at once.
 */
export function createGuards(
  tokens: AccessTokens,
  users: UsersRepo,
  clock: Clock,
  /** Ends sessions idle past the configured timeout and records activity. */
  activity?: { check(sessionId: string, lastSeen: string): Promise<void> },
  /** Told of every authenticated request (presence); must be cheap and never throw. */
  seen?: (userId: number) => void,
): Guards {
  const authenticate: preHandlerAsyncHookHandler = async (req) => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw new AppError('UNAUTHORIZED');
    const claims = await tokens.verify(token, clock.now());
    const found = await users.findForSession(claims.userId, claims.sid);
    if (!found) throw new AppError('UNAUTHORIZED');
    const { session_last_used_at: lastSeen, ...user } = found;
    if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    await activity?.check(claims.sid, lastSeen);
    seen?.(user.id);
    let cached: Promise<string[]> | undefined;
    req.auth = {
      user,
      sessionId: claims.sid,
      permissions: () =>
        (cached ??= users.extraPermissions(user.id).then((extra) => effectivePermissions(user.role, extra))),
    };
  };
  return {
    authenticate,
    authenticateIfPresent: async function (req, reply) {
      try {
        await authenticate.call(this, req, reply);
      } catch {
        req.auth = undefined;
      }
    },
    requirePermission:
      (...anyOf) =>
      async (req) => {
        const auth = currentAuth(req);
        // The role's own permissions settle most checks without reading per-user grants.
        if (hasAnyPermission(ROLE_PERMISSIONS[auth.user.role], anyOf)) return;
        if (!hasAnyPermission(await auth.permissions(), anyOf)) throw new AppError('FORBIDDEN');
      },
    requireRole: (roles) => async (req) => {
      if (!hasRole(currentAuth(req).user.role, roles)) throw new AppError('FORBIDDEN');
    },
  };
}
