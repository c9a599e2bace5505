import crypto from 'node:crypto';
import type {
  AdminUser,
  CreditOperationBody,
  CreditOperationResult,
  Group,
  UserImportReport,
} from '@aiplatform/contracts';
import { expect } from 'vitest';
import { type ApiResponse, type TestApp, multipartFile, unique } from './test-app.js';
import type { AuditChanges, DistributeCreditsBody } from '@aiplatform/contracts';
import type { AuditLogRow } from '../src/db/types.js';
import type { PoolTransferResult } from '../src/modules/groups/group-pool.service.js';
import { GroupsRepo } from '../src/modules/groups/groups.repo.js';

/** A mainland mobile number nobody else in the run has (13 followed by nine random digits). */
export function uniquePhone(): string {
  return `13${crypto.randomInt(0, 1_000_000_000).toString().padStart(9, '0')}`;
}

/** An account created through POST /api/admin/users, with the password it was given. */
export interface AdminCreatedUser extends AdminUser {
  password: string;
}

/** Creates a user as the administrator of `token`; throws unless the answer is 201. */
export async function createUserAsAdmin(
  t: TestApp,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<AdminCreatedUser> {
  const suffix = unique();
  const body = { username: `a_${suffix}`, email: `a_${suffix}@example.com`, password: 'secret123', ...overrides };
  const res = await t.post<AdminUser>('/api/admin/users', body, token);
  if (res.status !== 201) throw new Error(`admin create failed: ${res.status} ${res.text}`);
  return { ...res.body.data, password: body.password };
}

/** Creates a group as the administrator of `token`; throws unless the answer is 201. */
export async function createGroupAsAdmin(
  t: TestApp,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<Group> {
  const res = await t.post<Group>('/api/admin/user-groups', { name: `g_${unique()}`, ...overrides }, token);
  if (res.status !== 201) throw new Error(`group create failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** POST /api/admin/users/{id}/credits, optionally with an Idempotency-Key and a language. */
export function adjustCredits(
  t: TestApp,
  token: string,
  userId: number,
  body: Partial<CreditOperationBody> | Record<string, unknown>,
  opts: { idempotencyKey?: string; lang?: string } = {},
): Promise<ApiResponse<CreditOperationResult>> {
  return t.request<CreditOperationResult>('POST', `/api/admin/users/${userId}/credits`, {
    body,
    token,
    lang: opts.lang,
    headers: opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {},
  });
}

/** A user's ledger rows straight from the database, oldest first. */
export function ledgerRows(t: TestApp, userId: number) {
  return t.db.selectFrom('credit_transactions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** For every account: ledger sum = quota − used, and never overdrawn. */
export async function expectEveryLedgerConsistent(t: TestApp): Promise<void> {
  const users = await t.db.selectFrom('users').select(['id', 'credits_quota', 'credits_used']).execute();
  for (const u of users) {
    expect(await t.ledgerSum(u.id), `ledger of user ${u.id}`).toBe(u.credits_quota - u.credits_used);
    expect(u.credits_used, `user ${u.id} never overdrawn`).toBeLessThanOrEqual(u.credits_quota);
  }
}

/** Number of rows in a table, for "nothing was written" checks. */
export async function countRows(
  t: TestApp,
  table: 'users' | 'credit_transactions' | 'audit_logs' | 'auth_sessions',
): Promise<number> {
  const r = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Signs in a freshly created administrator: a group administrator by default, or any role and grants. */
export async function adminSession(
  t: TestApp,
  superToken: string,
  opts: { role?: 'admin' | 'super_admin'; group_id?: number; extra_permissions?: string[] } = {},
): Promise<{ user: AdminCreatedUser; token: string }> {
  const user = await createUserAsAdmin(t, superToken, {
    role: opts.role ?? 'admin',
    ...(opts.group_id !== undefined ? { group_id: opts.group_id } : {}),
  });
  if (opts.extra_permissions) {
    const res = await t.put(`/api/admin/users/${user.id}`, { extra_permissions: opts.extra_permissions }, superToken);
    if (res.status !== 200) throw new Error(`granting permissions failed: ${res.status} ${res.text}`);
  }
  const session = await t.tokensFor(user.email, user.password);
  return { user, token: session.accessToken };
}

/** POST /api/admin/user-groups/{id}/distribute-credits (distribute unless `operation` says otherwise). */
export function poolTransfer(
  t: TestApp,
  token: string,
  groupId: number,
  body: Partial<DistributeCreditsBody> & { user_id: number; amount: number },
  headers: Record<string, string> = {},
): Promise<ApiResponse<PoolTransferResult>> {
  return t.request<PoolTransferResult>('POST', `/api/admin/user-groups/${groupId}/distribute-credits`, {
    body: { reason: 'test', ...body },
    token,
    headers,
  });
}

/** The group's pool ledger sums to what is left in the pool, which is never negative. */
export async function expectPoolConsistent(t: TestApp, groupId: number): Promise<void> {
  const g = await t.db.selectFrom('user_groups').selectAll().where('id', '=', groupId).executeTakeFirstOrThrow();
  expect(g.credits_pool_used).toBeGreaterThanOrEqual(0);
  expect(g.credits_pool_used).toBeLessThanOrEqual(g.credits_pool);
  expect(await new GroupsRepo(t.db).poolLedgerSum(groupId), `pool ledger of group ${groupId}`).toBe(
    g.credits_pool - g.credits_pool_used,
  );
}

/** The highest sequence number of the audit chain (0 when it is empty). */
export async function auditHeadSeq(t: TestApp): Promise<number> {
  const r = await t.db
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(r?.seq ?? 0);
}

export type ParsedAuditRow = Omit<AuditLogRow, 'changes'> & { changes: AuditChanges; raw: string };

/** Audit rows written after `afterSeq`, in chain order, with `changes` parsed (`raw` keeps the stored text). */
export async function auditRowsAfter(t: TestApp, afterSeq: number): Promise<ParsedAuditRow[]> {
  const rows = await t.db.selectFrom('audit_logs').selectAll().where('seq', '>', afterSeq).orderBy('seq').execute();
  return rows.map((r) => ({
    ...r,
    seq: Number(r.seq),
    changes: JSON.parse(r.changes) as AuditChanges,
    raw: r.changes,
  }));
}

/** A CSV file from a header and rows, quoting cells that need it. */
export function toCsv(header: readonly string[], rows: (string | number)[][]): Buffer {
  const cell = (v: string | number) => {
    const s = String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return Buffer.from([header, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n');
}

/** POST /api/admin/users/import with the file (a dry run when asked). */
export function importCsv(t: TestApp, token: string, file: Buffer, dryRun?: boolean, lang = 'en-US') {
  const { payload, headers } = multipartFile('file', 'users.csv', 'text/csv', file);
  const query = dryRun === undefined ? '' : `?dry_run=${dryRun}`;
  return t.request<UserImportReport>('POST', `/api/admin/users/import${query}`, { payload, headers, token, lang });
}
