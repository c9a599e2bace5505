import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Auto-increment primary keys are spelled differently by the two dialects. */
function idType(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = idType(db);
  const pk = (name: string) =>
    db.schema
      .createTable(name)
      .ifNotExists()
      .addColumn('id', id, (c) => (id === 'serial' ? c.primaryKey() : c.primaryKey().autoIncrement()));

  await pk('user_groups')
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'varchar(32)', (c) => c.notNull().defaultTo('#1677ff'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('credits_pool', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_pool_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_limit', 'integer')
    .addColumn('site_name', 'varchar(100)')
    .addColumn('site_logo', 'text')
    .addColumn('site_config_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await pk('users')
    .addColumn('username', 'varchar(20)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('phone', 'varchar(20)')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('user'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('set null'))
    .addColumn('avatar_url', 'text')
    .addColumn('credits_quota', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_expire_at', 'varchar(32)')
    .addColumn('token_quota', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('token_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_login_at', 'varchar(32)')
    .addCheckConstraint('users_credits_not_overdrawn', sql`credits_used <= credits_quota`)
    .execute();
  // Uniqueness is case-insensitive for emails and usernames (stored lower-cased / compared lower-cased).
  await db.schema.createIndex('users_email_uq').ifNotExists().unique().on('users').column('email').execute();
  await db.schema
    .createIndex('users_username_uq')
    .ifNotExists()
    .unique()
    .on('users')
    .expression(sql`lower(username)`)
    .execute();
  await db.schema.createIndex('users_phone_uq').ifNotExists().unique().on('users').column('phone').execute();
  await db.schema.createIndex('users_group_idx').ifNotExists().on('users').column('group_id').execute();

  await pk('user_permissions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('user_permissions_uq', ['user_id', 'permission'])
    .execute();

  await db.schema
    .createTable('auth_sessions')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .execute();
  await db.schema.createIndex('auth_sessions_user_idx').ifNotExists().on('auth_sessions').column('user_id').execute();

  await pk('refresh_tokens')
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull().references('auth_sessions.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('refresh_tokens_session_idx')
    .ifNotExists()
    .on('refresh_tokens')
    .column('session_id')
    .execute();

  await pk('email_codes')
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('email_codes_email_idx')
    .ifNotExists()
    .on('email_codes')
    .columns(['email', 'created_at'])
    .execute();

  await pk('login_attempts')
    .addColumn('account_key', 'varchar(254)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('succeeded', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_attempts_account_idx')
    .ifNotExists()
    .on('login_attempts')
    .columns(['account_key', 'created_at'])
    .execute();
  await db.schema
    .createIndex('login_attempts_ip_idx')
    .ifNotExists()
    .on('login_attempts')
    .columns(['ip', 'created_at'])
    .execute();

  await pk('credit_transactions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('transaction_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('operator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reference_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('credit_tx_user_idx')
    .ifNotExists()
    .on('credit_transactions')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('credit_tx_operator_idx')
    .ifNotExists()
    .on('credit_transactions')
    .column('operator_id')
    .execute();
  // One refund per reservation, enforced by the database rather than by hope.
  await db.schema
    .createIndex('credit_tx_reference_uq')
    .ifNotExists()
    .unique()
    .on('credit_transactions')
    .columns(['transaction_type', 'reference_id'])
    .execute();

  await db.schema
    .createTable('system_settings')
    .ifNotExists()
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await pk('outbox_mails')
    .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'outbox_mails',
    'system_settings',
    'credit_transactions',
    'login_attempts',
    'email_codes',
    'refresh_tokens',
    'auth_sessions',
    'user_permissions',
    'users',
    'user_groups',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
