import type { Db } from '../../db/types.js';

/**
 * Takes the owner's user row lock for the rest of the transaction (a no-op update: the row
 * lock on PostgreSQL; SQLite writers are serialised anyway), so that a quota counted after
 * it cannot be raced by the owner's simultaneous requests.
 */
export async function lockOwner(trx: Db, userId: number): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', userId)
    .execute();
}
