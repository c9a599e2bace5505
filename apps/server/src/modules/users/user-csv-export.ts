import { Readable } from 'node:stream';
import type { AdminUser } from '@aiplatform/contracts';
import { stringify } from 'csv-stringify';

const COLUMNS = [
  'id',
  'username',
  'email',
  'phone',
  'role',
  'status',
  'group_id',
  'group_name',
  'credits_quota',
  'credits_used',
  'credits_remaining',
  'credits_expire_at',
  'token_quota',
  'token_used',
  'remark',
  'created_at',
  'last_login_at',
] as const;

/** A cell a spreadsheet would run as a formula gets a leading apostrophe instead. */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function toRecord(u: AdminUser): Record<(typeof COLUMNS)[number], string | number | null> {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    phone: u.phone,
    role: u.role,
    status: u.status,
    group_id: u.group_id,
    group_name: u.group_name,
    credits_quota: u.credits_quota,
    credits_used: u.credits_used,
    credits_remaining: u.credits_stats.remaining,
    credits_expire_at: u.credits_expire_at,
    token_quota: u.token_quota,
    token_used: u.token_used,
    remark: u.remark,
    created_at: u.created_at,
    last_login_at: u.last_login_at,
  };
}

/**
 * Streams users as CSV (UTF-8 with a byte-order mark so spreadsheets read Chinese),
 * pulling the next batch only when the client has taken the previous one.
 */
export function usersCsvStream(users: AsyncIterable<AdminUser>): Readable {
  const csv = stringify({
    header: true,
    bom: true,
    columns: [...COLUMNS],
    cast: { string: neutraliseFormula },
  });
  const source = Readable.from(
    (async function* () {
      for await (const u of users) yield toRecord(u);
    })(),
  );
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
