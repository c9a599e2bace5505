import { type Access, ROLE_PERMISSIONS, scopeOf } from '@aiplatform/contracts';
import type { preValidationAsyncHookHandler } from 'fastify';
import type { Guards } from './auth-guard.js';
import { AppError } from '../http/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The bearer-token guards, decorated once on the root so every route can reach them. */
    guards: Guards;
  }
}

/**
 * The hooks that enforce a call's declared access. They run before validation, so a
 * caller without access is refused (401/403) before the body or query is looked at
 * and learns nothing of their shape.
 */
export function accessHooks(guards: Guards, access: Access): preValidationAsyncHookHandler[] {
  if (access === 'public') return [];
  if (access === 'optional') return [guards.authenticateIfPresent];
  if (access === 'signedIn') return [guards.authenticate];
  return [
    guards.authenticate,
    async (req) => {
      const auth = req.auth;
      if (!auth) throw new AppError('UNAUTHORIZED');
      // The role's own permissions settle most checks without reading per-user grants.
      if (scopeOf(ROLE_PERMISSIONS[auth.user.role], access) !== 'none') return;
      if (scopeOf(await auth.permissions(), access) === 'none') throw new AppError('FORBIDDEN');
    },
  ];
}
