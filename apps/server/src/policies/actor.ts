import type { Role } from '@aiplatform/contracts';
import type { FastifyRequest } from 'fastify';
import { type AuthContext, currentAuth } from '../lib/auth/auth-guard.js';

/** Who is acting: enough to decide every policy question without another query. */
export interface Actor {
  id: number;
  username: string;
  role: Role;
  group_id: number | null;
  permissions: readonly string[];
}

/** An administrator's request as the audit log records it. */
export interface AdminContext {
  actor: Actor;
  ip: string;
  requestId: string;
}

export async function actorFromAuth(auth: AuthContext): Promise<Actor> {
  const { id, username, role, group_id } = auth.user;
  return { id, username, role, group_id, permissions: await auth.permissions() };
}

export function actorOf(req: FastifyRequest): Promise<Actor> {
  return actorFromAuth(currentAuth(req));
}

export async function adminContextOf(req: FastifyRequest): Promise<AdminContext> {
  return { actor: await actorOf(req), ip: req.ip, requestId: req.id };
}
