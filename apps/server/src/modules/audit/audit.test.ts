import type { AdminUser, AuditLog, AuditVerifyResult, Group } from '@aiplatform/contracts';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  adjustCredits,
  adminSession,
  auditHeadSeq,
  auditRowsAfter,
  createGroupAsAdmin,
  createUserAsAdmin,
  type ParsedAuditRow,
  poolTransfer,
} from '../../../test/admin-helpers.js';
import { type ApiResponse, type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import { keyedAuditHash, plainAuditHash } from './audit-chain.js';
import { AuditKey } from './audit-key.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The chain head as stored (the lock every append takes). */
async function chainHead(t: TestApp) {
  const r = await t.db.selectFrom('audit_chain_head').selectAll().executeTakeFirstOrThrow();
  return { seq: Number(r.seq), hash: r.hash };
}

async function verify(t: TestApp, token: string): Promise<AuditVerifyResult> {
  const res = await t.get<AuditVerifyResult>('/api/admin/audit-logs/verify', token);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function expectContiguousChain(t: TestApp): Promise<void> {
  const rows = await auditRowsAfter(t, 0);
  expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  for (let i = 1; i < rows.length; i += 1) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
  expect(await chainHead(t)).toEqual({ seq: rows.length, hash: rows.at(-1)?.hash ?? '0'.repeat(64) });
}

describe('audit log', () => {
  let t: TestApp;
  let token: string;
  let superId: number;
  let superName: string;
  beforeAll(async () => {
    t = await createTestApp();
    const s = await t.loginAsAdmin();
    token = s.accessToken;
    superId = s.user.id;
    superName = s.user.username;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Sends one admin write with its own X-Request-Id and returns the answer with the audit rows it wrote. */
  async function audited<T = unknown>(
    method: Method,
    url: string,
    body?: unknown,
    opts: { token?: string; headers?: Record<string, string> } = {},
  ): Promise<{ res: ApiResponse<T>; rows: ParsedAuditRow[]; rid: string }> {
    const since = await auditHeadSeq(t);
    const rid = `req-${unique()}`;
    const res = await t.request<T>(method, url, {
      body,
      token: opts.token ?? token,
      headers: { 'x-request-id': rid, ...opts.headers },
    });
    return { res, rows: await auditRowsAfter(t, since), rid };
  }

  function expectRow(
    row: ParsedAuditRow | undefined,
    rid: string,
    expected: { action: string; target_type: string; target_id: number | string },
  ) {
    expect(row).toMatchObject({
      actor_id: superId,
      actor_username: superName,
      action: expected.action,
      target_type: expected.target_type,
      target_id: String(expected.target_id),
      ip: '127.0.0.1',
      request_id: rid,
    });
  }

  describe('every admin write records one row per changed object', () => {
    let user: AdminUser & { password: string };
    let group: Group;

    it('user.create: the new account, never its password', async () => {
      const s = unique();
      const password = `Sup3r-${s}-pw`;
      const { res, rows, rid } = await audited<AdminUser>('POST', '/api/admin/users', {
        username: `au_${s}`,
        email: `au_${s}@example.com`,
        password,
      });
      expect(res.status).toBe(201);
      user = { ...res.body.data, password };
      expect(rows).toHaveLength(1);
      expectRow(rows[0], rid, { action: 'user.create', target_type: 'user', target_id: user.id });
      expect(rows[0]!.changes.before).toBeNull();
      expect(rows[0]!.changes.after).toMatchObject({ id: user.id, username: `au_${s}`, role: 'user', group_id: 1 });
      expect(rows[0]!.raw).not.toContain(password);
      const hash = (await t.userRow(user.id)).password_hash;
      expect(rows[0]!.raw).not.toContain(hash);
    });

    it('user.update: only the changed fields, before and after', async () => {
      const { res, rows, rid } = await audited('PUT', `/api/admin/users/${user.id}`, { remark: 'vip', token_quota: 5 });
      expect(res.status).toBe(200);
      expect(rows).toHaveLength(1);
      expectRow(rows[0], rid, { action: 'user.update', target_type: 'user', target_id: user.id });
      expect(rows[0]!.changes.before).toEqual({ remark: null, token_quota: user.token_quota });
      expect(rows[0]!.changes.after).toEqual({ remark: 'vip', token_quota: 5 });
    });

    it('user.disable and user.enable', async () => {
      for (const [status, action, before] of [
        ['inactive', 'user.disable', 'active'],
        ['active', 'user.enable', 'inactive'],
      ] as const) {
        const { res, rows, rid } = await audited('PUT', `/api/admin/users/${user.id}/status`, { status });
        expect(res.status).toBe(200);
        expect(rows).toHaveLength(1);
        expectRow(rows[0], rid, { action, target_type: 'user', target_id: user.id });
        expect(rows[0]!.changes).toEqual({ before: { status: before }, after: { status } });
      }
    });

    it('user.password.reset: recorded with the secret redacted', async () => {
      const newPassword = `N3w-${unique()}-secret`;
      const { res, rows, rid } = await audited('PUT', `/api/admin/users/${user.id}/password`, { newPassword });
      expect(res.status).toBe(200);
      expect(rows).toHaveLength(1);
      expectRow(rows[0], rid, { action: 'user.password.reset', target_type: 'user', target_id: user.id });
      expect(rows[0]!.changes.after).toEqual({ password: '[REDACTED]' });
      expect(rows[0]!.raw).not.toContain(newPassword);
      expect(rows[0]!.raw).not.toContain((await t.userRow(user.id)).password_hash);
      // Nothing anywhere in the log holds it.
      const all = await auditRowsAfter(t, 0);
      for (const r of all) expect(r.raw).not.toContain(newPassword);
    });

    it('user.credits.add / deduct / set: balance before and after, amount and reason', async () => {
      for (const [operation, amount, balanceBefore, balanceAfter, signed] of [
        ['add', 50, 1000, 1050, 50],
        ['deduct', 20, 1050, 1030, -20],
        ['set', 7, 1030, 7, -1023],
      ] as const) {
        const { res, rows, rid } = await audited('POST', `/api/admin/users/${user.id}/credits`, {
          operation,
          amount,
          reason: `why ${operation}`,
        });
        expect(res.status).toBe(200);
        expect(rows).toHaveLength(1);
        expectRow(rows[0], rid, { action: `user.credits.${operation}`, target_type: 'user', target_id: user.id });
        expect(rows[0]!.changes.before).toMatchObject({ balance: balanceBefore });
        expect(rows[0]!.changes.after).toMatchObject({
          balance: balanceAfter,
          amount: signed,
          reason: `why ${operation}`,
        });
      }
    });

    it('bulk actions: one row per user that actually changed', async () => {
      const [a, b, c] = [
        await createUserAsAdmin(t, token),
        await createUserAsAdmin(t, token),
        await createUserAsAdmin(t, token),
      ];
      await t.setUserStatus(c.id, 'inactive');
      const ids = [a.id, b.id, c.id];
      const disable = await audited('POST', '/api/admin/users/bulk', { ids, action: 'disable' });
      expect(disable.res.status).toBe(200);
      expect(disable.rows.map((r) => [r.action, Number(r.target_id)]).sort()).toEqual(
        [
          ['user.disable', a.id],
          ['user.disable', b.id],
        ].sort(),
      );
      for (const r of disable.rows) {
        expect(r.request_id).toBe(disable.rid);
        expect(r.changes).toEqual({ before: { status: 'active' }, after: { status: 'inactive' } });
      }
      // Nothing changed, nothing recorded.
      const again = await audited('POST', '/api/admin/users/bulk', { ids, action: 'disable' });
      expect(again.res.status).toBe(200);
      expect(again.rows).toEqual([]);

      group = await createGroupAsAdmin(t, token);
      const move = await audited('POST', '/api/admin/users/bulk', {
        ids: [a.id, b.id],
        action: 'move',
        group_id: group.id,
      });
      expect(move.res.status).toBe(200);
      expect(move.rows).toHaveLength(2);
      for (const r of move.rows) {
        expectRow(r, move.rid, { action: 'user.move', target_type: 'user', target_id: r.target_id! });
        expect(r.changes).toEqual({ before: { group_id: 1 }, after: { group_id: group.id } });
      }
    });

    it('user.delete: the retired account as it was', async () => {
      const victim = await createUserAsAdmin(t, token);
      const { res, rows, rid } = await audited('DELETE', `/api/admin/users/${victim.id}`);
      expect(res.status).toBe(200);
      expect(rows).toHaveLength(1);
      expectRow(rows[0], rid, { action: 'user.delete', target_type: 'user', target_id: victim.id });
      expect(rows[0]!.changes.before).toMatchObject({
        username: victim.username,
        email: victim.email,
        status: 'active',
      });
      expect(rows[0]!.changes.after).toBeNull();
    });

    it('groups: create, update, member limit, site config, pool, distribute, reclaim, delete', async () => {
      const name = `Audited ${unique()}`;
      const created = await audited<Group>('POST', '/api/admin/user-groups', { name });
      expect(created.res.status).toBe(201);
      const g = created.res.body.data;
      expect(created.rows).toHaveLength(1);
      expectRow(created.rows[0], created.rid, { action: 'group.create', target_type: 'group', target_id: g.id });
      expect(created.rows[0]!.changes).toMatchObject({ before: null, after: { name, id: g.id } });

      const member = await createUserAsAdmin(t, token, { group_id: g.id });
      const steps: [Method, string, unknown, string, unknown][] = [
        [
          'PUT',
          '',
          { description: 'desc' },
          'group.update',
          { before: { description: '' }, after: { description: 'desc' } },
        ],
        [
          'PUT',
          '/user-limit',
          { user_limit: 10 },
          'group.user_limit',
          { before: { user_limit: null }, after: { user_limit: 10 } },
        ],
        [
          'PUT',
          '/site-config',
          { site_name: 'Team', site_logo: null, enabled: true },
          'group.site_config',
          {
            before: { site_name: null, site_config_enabled: false },
            after: { site_name: 'Team', site_config_enabled: true },
          },
        ],
        [
          'PUT',
          '/credits-pool',
          { credits_pool: 100 },
          'group.pool.set',
          { before: { credits_pool: 0 }, after: { credits_pool: 100 } },
        ],
        [
          'POST',
          '/distribute-credits',
          { user_id: member.id, amount: 30, reason: 'share' },
          'group.pool.distribute',
          {
            before: { pool_remaining: 100, user_id: member.id, user_balance: 1000 },
            after: { pool_remaining: 70, user_id: member.id, user_balance: 1030, amount: 30, reason: 'share' },
          },
        ],
        [
          'POST',
          '/distribute-credits',
          { user_id: member.id, amount: 5, reason: 'back', operation: 'reclaim' },
          'group.pool.reclaim',
          {
            before: { pool_remaining: 70, user_id: member.id, user_balance: 1030 },
            after: { pool_remaining: 75, user_id: member.id, user_balance: 1025, amount: 5, reason: 'back' },
          },
        ],
      ];
      for (const [method, path, body, action, changes] of steps) {
        const { res, rows, rid } = await audited(method, `/api/admin/user-groups/${g.id}${path}`, body);
        expect(res.status, `${action}: ${res.text}`).toBe(200);
        expect(rows, action).toHaveLength(1);
        expectRow(rows[0], rid, { action, target_type: 'group', target_id: g.id });
        expect(rows[0]!.changes, action).toEqual(changes);
      }

      expect((await t.request('DELETE', `/api/admin/users/${member.id}`, { token })).status).toBe(200);
      const del = await audited('DELETE', `/api/admin/user-groups/${g.id}`);
      expect(del.res.status).toBe(200);
      expect(del.rows).toHaveLength(1);
      expectRow(del.rows[0], del.rid, { action: 'group.delete', target_type: 'group', target_id: g.id });
      expect(del.rows[0]!.changes).toMatchObject({ before: { name, credits_pool: 100 }, after: null });
    });
  });

  it('records nothing for a refused or failed write, and rolls the chain head back too', async () => {
    const full = await createGroupAsAdmin(t, token, { user_limit: 2 });
    const member = await createUserAsAdmin(t, token, { group_id: full.id });
    // The group administrator takes the last place (before the pool, which would pay their opening credits).
    const ga = await adminSession(t, token, { group_id: full.id });
    expect((await t.put(`/api/admin/user-groups/${full.id}/credits-pool`, { credits_pool: 10 }, token)).status).toBe(
      200,
    );
    const key = `once-${unique()}`;
    expect(
      (await adjustCredits(t, token, member.id, { operation: 'add', amount: 1, reason: 'r' }, { idempotencyKey: key }))
        .status,
    ).toBe(200);
    const s = unique();

    const head = await chainHead(t);
    const failures: [Method, string, unknown, number, Record<string, string>?][] = [
      [
        'POST',
        '/api/admin/users',
        { username: `x_${s}`, email: `x_${s}@example.com`, password: 'secret123', group_id: full.id },
        409,
      ],
      ['POST', `/api/admin/users/${member.id}/credits`, { operation: 'deduct', amount: 999_999, reason: 'r' }, 402],
      [
        'POST',
        `/api/admin/user-groups/${full.id}/distribute-credits`,
        { user_id: member.id, amount: 11, reason: 'r' },
        409,
      ],
      [
        'POST',
        `/api/admin/user-groups/${full.id}/distribute-credits`,
        { user_id: member.id, amount: 999_999, reason: 'r', operation: 'reclaim' },
        409,
      ],
      ['POST', '/api/admin/user-groups', { name: full.name }, 409],
      ['DELETE', `/api/admin/user-groups/${full.id}`, undefined, 409],
      ['PUT', `/api/admin/users/${member.id}`, { email: 'not-an-email' }, 400],
      ['PUT', `/api/admin/users/${superId}/status`, { status: 'inactive' }, 400],
      ['PUT', `/api/admin/users/999999`, { remark: 'ghost' }, 404],
      // Repeating an applied idempotent request changes nothing and records nothing.
      [
        'POST',
        `/api/admin/users/${member.id}/credits`,
        { operation: 'add', amount: 1, reason: 'r' },
        200,
        { 'idempotency-key': key },
      ],
      // Enabling users who are all enabled already.
      ['POST', '/api/admin/users/bulk', { ids: [member.id], action: 'enable' }, 200],
    ];
    for (const [method, url, body, status, headers] of failures) {
      const { res, rows } = await audited(method, url, body, headers ? { headers } : {});
      expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
      expect(rows, `${method} ${url}`).toEqual([]);
    }
    // A group administrator's refused write.
    const refused = await audited('PUT', `/api/admin/user-groups/${full.id}`, { name: 'mine' }, { token: ga.token });
    expect(refused.res.status).toBe(403);
    expect(refused.rows).toEqual([]);
    expect(await chainHead(t)).toEqual(head);
    expect(await verify(t, token)).toMatchObject({ valid: true, broken_at: null });
  });

  it("records a group administrator's writes under their own name", async () => {
    const g = await createGroupAsAdmin(t, token);
    const ga = await adminSession(t, token, { group_id: g.id });
    const since = await auditHeadSeq(t);
    const created = await createUserAsAdmin(t, ga.token);
    const rows = await auditRowsAfter(t, since);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: ga.user.id,
      actor_username: ga.user.username,
      action: 'user.create',
      target_id: String(created.id),
    });
    const list = await t.get<AuditLog[]>(`/api/admin/audit-logs?actor_id=${ga.user.id}`, token);
    expect(list.body.data.map((r) => r.id)).toEqual([rows[0]!.id]);
    expect(list.body.data[0]!.changes.after).toMatchObject({ id: created.id, group_id: g.id });
  });

  describe('list', () => {
    const list = (query: string) => t.get<AuditLog[]>(`/api/admin/audit-logs?limit=100&${query}`, token);

    it('filters by actor', async () => {
      const mine = await list(`actor_id=${superId}`);
      expect(mine.status).toBe(200);
      expect(mine.body.data.length).toBeGreaterThan(0);
      for (const r of mine.body.data) expect(r.actor_id).toBe(superId);
      expect((await list('actor_id=999999')).body.data).toEqual([]);
    });

    it('filters by action prefix, taking _ and % literally', async () => {
      const credits = await list('action=user.credits');
      expect(credits.body.data.map((r) => r.action).sort()).toEqual(
        expect.arrayContaining(['user.credits.add', 'user.credits.deduct', 'user.credits.set']),
      );
      for (const r of credits.body.data) expect(r.action.startsWith('user.credits')).toBe(true);
      const pool = await list('action=group.pool.');
      expect(new Set(pool.body.data.map((r) => r.action))).toEqual(
        new Set(['group.pool.set', 'group.pool.distribute', 'group.pool.reclaim']),
      );
      for (const action of ['group.user_limit', 'group.site_config', 'user.password.reset']) {
        const exact = await list(`action=${action}`);
        expect(exact.body.data.length, action).toBeGreaterThan(0);
        for (const r of exact.body.data) expect(r.action).toBe(action);
      }
      expect((await list('action=user_credits')).body.data).toEqual([]);
      expect((await list('action=%25')).body.data).toEqual([]);
      expect((await list('action=user.%25')).body.data).toEqual([]);
    });

    it('filters by target type and combines filters', async () => {
      const groups = await list('target_type=group');
      expect(groups.body.data.length).toBeGreaterThan(0);
      for (const r of groups.body.data) expect(r.target_type).toBe('group');
      const both = await list(`target_type=user&action=user.disable&actor_id=${superId}`);
      expect(both.body.data.length).toBeGreaterThan(0);
      for (const r of both.body.data)
        expect(r).toMatchObject({ target_type: 'user', action: 'user.disable', actor_id: superId });
    });

    it('pages newest first with a total, and clamps the page size', async () => {
      const total = Number(
        (
          await t.db
            .selectFrom('audit_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(total).toBeGreaterThan(4);
      const p1 = await t.get<AuditLog[]>('/api/admin/audit-logs?limit=2&page=1', token);
      const p2 = await t.get<AuditLog[]>('/api/admin/audit-logs?limit=2&page=2', token);
      expect(p1.body.pagination).toMatchObject({ page: 1, limit: 2, total, hasNext: true, hasPrev: false });
      expect(p2.body.pagination).toMatchObject({ page: 2, limit: 2, total, hasPrev: true });
      const ids = [...p1.body.data, ...p2.body.data].map((r) => r.id);
      expect(ids).toHaveLength(4);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const newest = await t.db.selectFrom('audit_logs').select('id').orderBy('seq', 'desc').limit(4).execute();
      expect(ids).toEqual(newest.map((r) => r.id));
      const big = await t.get<AuditLog[]>('/api/admin/audit-logs?limit=1000', token);
      expect(big.body.pagination?.limit).toBe(100);
      expect(big.body.data.length).toBe(Math.min(total, 100));
    });
  });

  it('exports the filtered log as CSV with a BOM', async () => {
    const res = await t.request('GET', '/api/admin/audit-logs/export.csv?target_type=group', { token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toMatch(/attachment; filename="audit-\d+\.csv"/);
    expect(res.text.charCodeAt(0)).toBe(0xfeff);
    const records = parse<Record<string, string>>(res.text.slice(1), { columns: true });
    const expected = await t.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('target_type', '=', 'group')
      .orderBy('seq')
      .execute();
    expect(records.map((r) => Number(r.id))).toEqual(expected.map((r) => r.id));
    expect(Object.keys(records[0]!)).toEqual([
      'id',
      'created_at',
      'actor_id',
      'actor_username',
      'action',
      'target_type',
      'target_id',
      'ip',
      'request_id',
      'changes',
    ]);
    expect(records[0]).toMatchObject({ action: expected[0]!.action, request_id: expected[0]!.request_id });
    expect(JSON.parse(records[0]!.changes!)).toEqual(JSON.parse(expected[0]!.changes));
  });

  it('keeps one valid chain with contiguous seq under 20 concurrent admin writes', async () => {
    const g = await createGroupAsAdmin(t, token);
    const members = [
      await createUserAsAdmin(t, token, { group_id: g.id }),
      await createUserAsAdmin(t, token, { group_id: g.id }),
    ];
    expect((await t.put(`/api/admin/user-groups/${g.id}/credits-pool`, { credits_pool: 1000 }, token)).status).toBe(
      200,
    );
    const since = await auditHeadSeq(t);
    const writes = Array.from({ length: 20 }, (_, i) => {
      const m = members[i % 2]!;
      switch (i % 4) {
        case 0:
          return t.post('/api/admin/user-groups', { name: `conc ${unique()}` }, token);
        case 1:
          return adjustCredits(t, token, m.id, { operation: 'add', amount: 1, reason: 'c' });
        case 2:
          return poolTransfer(t, token, g.id, { user_id: m.id, amount: 2 });
        default:
          return t.put(`/api/admin/users/${m.id}`, { remark: `r${i}` }, token);
      }
    });
    const results = await Promise.all(writes);
    for (const r of results) expect(r.status, r.text).toBeLessThan(300);
    const rows = await auditRowsAfter(t, since);
    expect(rows).toHaveLength(20);
    await expectContiguousChain(t);
    const v = await verify(t, token);
    expect(v).toEqual({
      valid: true,
      checked: await auditHeadSeq(t),
      broken_at: null,
      problem: null,
      checkpoint: null,
    });
  });

  it('is for super administrators only', async () => {
    const g = await createGroupAsAdmin(t, token);
    const ga = await adminSession(t, token, { group_id: g.id });
    const strong = await adminSession(t, token, {
      group_id: g.id,
      extra_permissions: ['user.manage', 'group.manage', 'credits.manage', 'settings.manage'],
    });
    const plain = await t.signUp();
    for (const tk of [ga.token, strong.token, plain.session.accessToken]) {
      for (const url of ['/api/admin/audit-logs', '/api/admin/audit-logs/verify', '/api/admin/audit-logs/export.csv']) {
        const res = await t.get(url, tk);
        expect(res.status, url).toBe(403);
        expect(res.text).not.toContain('user.create');
      }
    }
    expect((await t.get('/api/admin/audit-logs')).status).toBe(401);
    const other = await adminSession(t, token, { role: 'super_admin', group_id: g.id });
    expect((await t.get('/api/admin/audit-logs', other.token)).status).toBe(200);
  });

  it('offers no call that changes or deletes a row', async () => {
    const row = await t.db.selectFrom('audit_logs').select('id').limit(1).executeTakeFirstOrThrow();
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.request(method, `/api/admin/audit-logs/${row.id}`, {
        token,
        body: method === 'PUT' ? {} : undefined,
      });
      expect(res.status).toBe(404);
    }
    expect(await verify(t, token)).toMatchObject({ valid: true });
  });
});

describe('audit chain verification', () => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
    for (let i = 0; i < 5; i += 1) await createGroupAsAdmin(t, token);
  });
  afterEach(async () => {
    await t.close();
  });

  const rows = () => auditRowsAfter(t, 0);
  const broken = (checked: number, brokenAt: number | null, problem: string) => ({
    valid: false,
    checked,
    broken_at: brokenAt,
    problem,
    checkpoint: null,
  });

  it('answers valid for an untouched chain, counting every row', async () => {
    expect(await rows()).toHaveLength(5);
    expect(await verify(t, token)).toEqual({
      valid: true,
      checked: 5,
      broken_at: null,
      problem: null,
      checkpoint: null,
    });
  });

  it('names the row whose changes were edited in the database', async () => {
    const third = (await rows())[2]!;
    await t.db
      .updateTable('audit_logs')
      .set({ changes: third.raw.replace('"after":{', '"after":{"forged":true,') })
      .where('id', '=', third.id)
      .execute();
    expect(await verify(t, token)).toEqual(broken(2, third.id, 'row'));
  });

  it('names the row whose actor was edited, even the newest one', async () => {
    const last = (await rows()).at(-1)!;
    await t.db.updateTable('audit_logs').set({ actor_username: 'someone-else' }).where('id', '=', last.id).execute();
    expect(await verify(t, token)).toEqual(broken(4, last.id, 'row'));
  });

  it('names the row after a deleted one', async () => {
    const all = await rows();
    await t.db.deleteFrom('audit_logs').where('id', '=', all[1]!.id).execute();
    expect(await verify(t, token)).toEqual(broken(1, all[2]!.id, 'row'));
  });

  it('names a middle row rewritten with a recomputed plain sha256 hash, though the rest was recomputed too', async () => {
    const all = await rows();
    const target = all[1]!;
    // The forger rewrites the row and recomputes every hash after it the way anyone can.
    let prev = all[0]!.hash;
    for (const row of all.slice(1)) {
      const { id, hash: _hash, raw, changes: _c, ...content } = row;
      const changes = row === target ? JSON.stringify({ before: null, after: { name: 'forged' } }) : raw;
      const hash = plainAuditHash({ ...content, changes, prev_hash: prev });
      await t.db.updateTable('audit_logs').set({ changes, prev_hash: prev, hash }).where('id', '=', id).execute();
      prev = hash;
    }
    await t.db.updateTable('audit_chain_head').set({ hash: prev }).where('id', '=', 1).execute();
    expect(await verify(t, token)).toEqual(broken(1, target.id, 'row'));
  });

  it('names the successor of a row rewritten with a recomputed keyed hash (someone holding the secret)', async () => {
    const key = new AuditKey(resolveAppSecret(t.config.appSecret, t.config.dataDir));
    const all = await rows();
    const target = all[1]!;
    const { id: _id, hash: _hash, raw: _raw, changes: _c, ...content } = target;
    const forged = { ...content, changes: JSON.stringify({ before: null, after: { name: 'forged' } }) };
    await t.db
      .updateTable('audit_logs')
      .set({ changes: forged.changes, hash: keyedAuditHash(key, forged) })
      .where('id', '=', target.id)
      .execute();
    expect(await verify(t, token)).toEqual(broken(2, all[2]!.id, 'row'));
  });

  it('notices that the newest rows were deleted', async () => {
    const all = await rows();
    await t.db.deleteFrom('audit_logs').where('id', '=', all.at(-1)!.id).execute();
    expect(await verify(t, token)).toEqual(broken(4, null, 'rows_removed'));
    await t.db.deleteFrom('audit_logs').where('id', '=', all.at(-2)!.id).execute();
    expect(await verify(t, token)).toEqual(broken(3, null, 'rows_removed'));
  });

  it('names the newest row when it was rewritten with a recomputed hash', async () => {
    const last = (await rows()).at(-1)!;
    const { id: _id, hash: _hash, raw: _raw, changes: _c, ...content } = last;
    const forged = { ...content, changes: JSON.stringify({ before: null, after: { name: 'forged' } }) };
    await t.db
      .updateTable('audit_logs')
      .set({ changes: forged.changes, hash: plainAuditHash(forged) })
      .where('id', '=', last.id)
      .execute();
    expect(await verify(t, token)).toEqual(broken(4, last.id, 'row'));
  });

  it('stays valid while writes go on during verification', async () => {
    const writes = Array.from({ length: 10 }, () => t.post('/api/admin/user-groups', { name: `w ${unique()}` }, token));
    const checks = Array.from({ length: 5 }, () => t.get<AuditVerifyResult>('/api/admin/audit-logs/verify', token));
    const results = await Promise.all([...writes, ...checks]);
    for (const r of results.slice(0, 10)) expect(r.status).toBe(201);
    for (const r of results.slice(10)) expect((r.body.data as AuditVerifyResult).valid).toBe(true);
    expect(await verify(t, token)).toEqual({
      valid: true,
      checked: 15,
      broken_at: null,
      problem: null,
      checkpoint: null,
    });
  });
});

describe('audit date filters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes from and to as inclusive days or instants (UTC)', async () => {
    const DAY = 86_400_000;
    const days: string[] = [];
    const ids: number[] = [];
    let token = '';
    for (let i = 0; i < 3; i += 1) {
      if (i > 0) t.clock.advance(DAY);
      token = (await t.loginAsAdmin()).accessToken;
      days.push(t.clock.now().toISOString().slice(0, 10));
      const since = await auditHeadSeq(t);
      await createGroupAsAdmin(t, token);
      ids.push((await auditRowsAfter(t, since))[0]!.id);
    }
    const q = async (query: string) =>
      (await t.get<AuditLog[]>(`/api/admin/audit-logs?${query}`, token)).body.data
        .map((r) => r.id)
        .sort((a, b) => a - b);
    expect(await q(`from=${days[1]}&to=${days[1]}`)).toEqual([ids[1]]);
    expect(await q(`from=${days[1]}`)).toEqual([ids[1], ids[2]]);
    expect(await q(`to=${days[1]}`)).toEqual([ids[0], ids[1]]);
    const middle = await t.db
      .selectFrom('audit_logs')
      .select('created_at')
      .where('id', '=', ids[1]!)
      .executeTakeFirstOrThrow();
    expect(await q(`from=${middle.created_at}&to=${middle.created_at}`)).toEqual([ids[1]]);
    // An unreadable date is ignored rather than refused.
    expect(await q('from=yesterday')).toEqual(ids);
  });
});
