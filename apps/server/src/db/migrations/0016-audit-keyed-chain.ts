import crypto from 'node:crypto';
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * The audit chain becomes keyed: rows from here on carry an HMAC under a key derived from
 * the application secret instead of a plain sha256. Rows already written keep their hash
 * and still verify as they were. The head records the cut-over (the first keyed sequence
 * number) sealed with the key together with the hash the keyed rows start from, so the
 * cut-over cannot be moved later by someone who can write to the database but does not
 * hold the secret. This is why the migration needs the secret. Also the table of signed
 * checkpoints of the chain head.
 */
export function auditKeyedChain(appSecret: string): Migration {
  return { up: (db) => up(db, appSecret), down };
}

/*
 * The seal as this migration makes it, frozen here (the live audit code checks it): an
 * HMAC-SHA256, hex, under the audit key (HKDF-SHA256 of the application secret, salt
 * 'aiplatform', info 'audit-log:chain', 32 bytes), of the purpose 'keyed-from', a newline,
 * the first keyed sequence number, a newline and the hash the keyed rows start from.
 */
function keyedFromSeal(appSecret: string, keyedFrom: number, prevHash: string): string {
  const key = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'aiplatform', 'audit-log:chain', 32));
  return crypto
    .createHmac('sha256', key)
    .update('keyed-from')
    .update('\n')
    .update(`${keyedFrom}\n${prevHash}`)
    .digest('hex');
}

async function up(db: Kysely<unknown>, appSecret: string): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('audit_chain_head')
    .addColumn('keyed_from', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('audit_chain_head')
    .addColumn('keyed_seal', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  const head = await sql<{ seq: number; hash: string }>`select seq, hash from audit_chain_head where id = 1`.execute(
    db,
  );
  const { seq, hash } = head.rows[0]!;
  const keyedFrom = Number(seq) + 1;
  await sql`update audit_chain_head set keyed_from = ${keyedFrom}, keyed_seal = ${keyedFromSeal(appSecret, keyedFrom, hash)} where id = 1`.execute(
    db,
  );

  await db.schema
    .createTable('audit_checkpoints')
    .ifNotExists()
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('last_id', 'integer')
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('signature', 'varchar(64)', (c) => c.notNull())
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_checkpoints').ifExists().execute();
  await db.schema.alterTable('audit_chain_head').dropColumn('keyed_seal').execute();
  await db.schema.alterTable('audit_chain_head').dropColumn('keyed_from').execute();
}
