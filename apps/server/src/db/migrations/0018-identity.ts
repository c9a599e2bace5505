import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Single sign-on. `identity_providers` holds each connected provider (OIDC, SAML, LDAP) with
 * its configuration as JSON, secrets sealed inside it; `user_identities` ties a person at a
 * provider (provider, subject) to an account. What a sign-in must find again on whichever
 * instance its next request reaches lives here rather than in one process's memory: the
 * start→callback state (`sso_states`), the callback's one-time exchange code
 * (`sso_exchange_codes`), and the SAML assertion ids already accepted
 * (`saml_seen_assertions`). States and codes are stored as hashes. `users.group_pinned`
 * keeps a user's group out of the providers' group mapping.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('identity_providers')
    .addColumn('id', serial ? 'serial' : 'integer', (c) => (serial ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('mapping', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('jit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('link_verified_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_group_id', 'integer', (c) => c.references('user_groups.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('id', serial ? 'serial' : 'integer', (c) => (serial ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('subject', 'varchar(512)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_login_at', 'varchar(32)')
    .addUniqueConstraint('user_identities_provider_subject_unique', ['provider_id', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user_idx').on('user_identities').column('user_id').execute();

  await db.schema
    .alterTable('users')
    .addColumn('group_pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('sso_states')
    .addColumn('state_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('nonce', 'varchar(128)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('redirect', 'varchar(2048)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_states_expires_idx').on('sso_states').column('expires_at').execute();

  await db.schema
    .createTable('sso_exchange_codes')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_exchange_codes_expires_idx').on('sso_exchange_codes').column('expires_at').execute();

  await db.schema
    .createTable('saml_seen_assertions')
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('assertion_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('saml_seen_assertions_unique', ['provider_id', 'assertion_id'])
    .execute();
  await db.schema
    .createIndex('saml_seen_assertions_expires_idx')
    .on('saml_seen_assertions')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['saml_seen_assertions', 'sso_exchange_codes', 'sso_states', 'user_identities']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('users').dropColumn('group_pinned').execute();
  await db.schema.dropTable('identity_providers').ifExists().execute();
}
