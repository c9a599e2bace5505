import type { Kysely } from 'kysely';

/**
 * Ties a single sign-on to the browser tab that started it. Without it, anybody could start a
 * sign-in with their own account and send the finished callback address to someone else, who
 * would then be signed in as them (login cross-site request forgery) and might type their
 * own work into that account. The tab keeps a random value; the start carries it and the
 * state row keeps its SHA-256, which moves on to the exchange code; the exchange must present
 * the value again. Rows of a start without one (clients that do not bind) keep null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sso_states').addColumn('binding_hash', 'varchar(64)').execute();
  await db.schema.alterTable('sso_exchange_codes').addColumn('binding_hash', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sso_exchange_codes').dropColumn('binding_hash').execute();
  await db.schema.alterTable('sso_states').dropColumn('binding_hash').execute();
}
