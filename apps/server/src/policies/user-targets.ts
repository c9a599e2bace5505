import type { Action, AdminUser } from '@aiplatform/contracts';
import type { Db, UserRow } from '../db/types.js';
import type { Actor } from './actor.js';

/** A user as the policy sees it. */
export const userTarget = (u: Pick<UserRow, 'id' | 'group_id' | 'role'>) =>
  ({ kind: 'user', id: u.id, group_id: u.group_id, role: u.role }) as const;

/**
 * What an administrator's action on a user's money (credits, a pool transfer) needs of
 * the users module: the user locked for the action, and the user as administrators see
 * them. Declared here so that credits and groups depend on this contract, not on the
 * users module, which itself builds on credits and groups (opening credits, memberships).
 */
export interface UserTargets {
  /** Locks a user the actor may `action`; outside their sight it does not exist (404). */
  lockTarget(actor: Actor, action: Action, id: number, trx: Db, now: string): Promise<UserRow>;
  /** The user as `actor` sees them, with what `actor` may now do to them. */
  present(actor: Actor, id: number, db: Db): Promise<AdminUser>;
}
