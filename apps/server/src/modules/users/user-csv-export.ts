import type { Readable } from 'node:stream';
import { csvStream } from '../../lib/http/csv-stream.js';
import type { AdminUserFields } from './admin-user.presenter.js';

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

function toRecord(u: AdminUserFields): Record<(typeof COLUMNS)[number], string | number | null> {
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

/** Streams users as CSV, one batch at a time. */
export function usersCsvStream(users: AsyncIterable<AdminUserFields>): Readable {
  return csvStream(
    COLUMNS,
    (async function* () {
      for await (const u of users) yield toRecord(u);
    })(),
  );
}
