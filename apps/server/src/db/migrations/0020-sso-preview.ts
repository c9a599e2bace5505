import type { Kysely } from 'kysely';

/**
 * The administrator's test sign-in: a state started as a preview names the administrator it
 * is for (such a flow signs nobody in), and what the provider sent waits for that
 * administrator's page under the hash of a one-time code, as the exchange codes do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sso_states').addColumn('preview_for', 'integer').execute();
  await db.schema
    .createTable('sso_previews')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    // The preview as JSON: the claims and what the account rules would do with them.
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_previews').ifExists().execute();
  await db.schema.alterTable('sso_states').dropColumn('preview_for').execute();
}
