import type { AdminUser, Group } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminCreatedUser,
  adjustCredits,
  adminSession,
  createGroupAsAdmin,
  createUserAsAdmin,
  expectEveryLedgerConsistent,
  expectPoolConsistent,
  ledgerRows,
  poolTransfer,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

describe('group administrator', () => {
  let t: TestApp;
  let superToken: string;
  let groupA: Group;
  let groupB: Group;
  /** The group administrator of group A. */
  let ga: { id: number; token: string };
  let otherAdminA: AdminUser;
  let superInA: AdminUser;
  let userB: AdminCreatedUser;

  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
    groupA = await createGroupAsAdmin(t, superToken);
    groupB = await createGroupAsAdmin(t, superToken);
    const s = await adminSession(t, superToken, { group_id: groupA.id });
    ga = { id: s.user.id, token: s.token };
    otherAdminA = await createUserAsAdmin(t, superToken, { role: 'admin', group_id: groupA.id });
    superInA = await createUserAsAdmin(t, superToken, { role: 'super_admin', group_id: groupA.id });
    userB = await createUserAsAdmin(t, superToken, { group_id: groupB.id });
    // Large enough for the opening credits of every member the tests below add.
    for (const g of [groupA, groupB]) {
      expect(
        (await t.put(`/api/admin/user-groups/${g.id}/credits-pool`, { credits_pool: 100_000 }, superToken)).status,
      ).toBe(200);
    }
  });
  afterEach(async () => {
    await expectEveryLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A plain user of group A. */
  const memberA = () => createUserAsAdmin(t, superToken, { group_id: groupA.id });

  it('holds the group administrator permissions from the role', async () => {
    const me = await t.get<{ permissions: string[]; user: { role: string; group_id: number } }>(
      '/api/auth/me',
      ga.token,
    );
    expect(me.body.data.user).toMatchObject({ role: 'admin', group_id: groupA.id });
    expect(me.body.data.permissions).toEqual(expect.arrayContaining(['user.manage.group', 'credits.manage.group']));
    expect(me.body.data.permissions).not.toContain('user.manage');
  });

  it("lists only their group's users, whatever the filter says", async () => {
    const a = await memberA();
    const res = await t.get<AdminUser[]>('/api/admin/users?limit=100', ga.token);
    expect(res.status).toBe(200);
    const ids = res.body.data.map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, ga.id, otherAdminA.id, superInA.id]));
    expect(ids).not.toContain(userB.id);
    for (const u of res.body.data) expect(u.group_id).toBe(groupA.id);
    const live = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('group_id', '=', groupA.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(res.body.pagination?.total).toBe(Number(live.n));
    const filtered = await t.get<AdminUser[]>(`/api/admin/users?group_id=${groupB.id}`, ga.token);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data).toEqual([]);
  });

  it('gets 404 for a user of another group on every user call, and changes nothing', async () => {
    const u = `/api/admin/users/${userB.id}`;
    const before = await t.userRow(userB.id);
    const calls = [
      () => t.get(u, ga.token),
      () => t.put(u, { remark: 'mine now' }, ga.token),
      () => t.put(`${u}/status`, { status: 'inactive' }, ga.token),
      () => t.put(`${u}/password`, { newPassword: 'hijacked123' }, ga.token),
      () => t.request('DELETE', u, { token: ga.token }),
      () => t.get(`${u}/credits/history`, ga.token),
      () => t.post('/api/admin/users/bulk', { ids: [userB.id], action: 'disable' }, ga.token),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status, res.text).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    expect(await t.userRow(userB.id)).toEqual(before);
    await t.tokensFor(userB.email, userB.password);
  });

  it('reads but does not change another administrator of their group (403)', async () => {
    expect((await t.get(`/api/admin/users/${otherAdminA.id}`, ga.token)).status).toBe(200);
    expect((await t.get(`/api/admin/users/${superInA.id}`, ga.token)).status).toBe(200);
    for (const target of [otherAdminA, superInA]) {
      const u = `/api/admin/users/${target.id}`;
      for (const res of [
        await t.put(u, { remark: 'x' }, ga.token),
        await t.put(`${u}/status`, { status: 'inactive' }, ga.token),
        await t.put(`${u}/password`, { newPassword: 'hijacked123' }, ga.token),
        await t.request('DELETE', u, { token: ga.token }),
      ]) {
        expect(res.status, res.text).toBe(403);
      }
      expect((await t.userRow(target.id)).status).toBe('active');
    }
  });

  it('runs the plain users of their group: edit, disable, reset password, retire', async () => {
    const a = await memberA();
    const u = `/api/admin/users/${a.id}`;
    expect((await t.put<AdminUser>(u, { remark: 'hello' }, ga.token)).body.data.remark).toBe('hello');
    expect((await t.put<AdminUser>(`${u}/status`, { status: 'inactive' }, ga.token)).body.data.status).toBe('inactive');
    expect((await t.put(`${u}/status`, { status: 'active' }, ga.token)).status).toBe(200);
    expect((await t.put(`${u}/password`, { newPassword: 'another123' }, ga.token)).status).toBe(200);
    await t.tokensFor(a.email, 'another123');
    expect((await t.get(`${u}/credits/history`, ga.token)).status).toBe(200);
    expect((await t.request('DELETE', u, { token: ga.token })).status).toBe(200);
    expect((await t.userRow(a.id)).deleted_at).not.toBeNull();
  });

  it('cannot change roles or grant permissions (403)', async () => {
    const a = await memberA();
    for (const body of [{ role: 'admin' }, { role: 'super_admin' }, { extra_permissions: ['user.manage'] }]) {
      const res = await t.put(`/api/admin/users/${a.id}`, body, ga.token);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    expect((await t.userRow(a.id)).role).toBe('user');
    const create = await t.post(
      '/api/admin/users',
      { username: `r_${unique()}`, email: `r_${unique()}@example.com`, password: 'secret123', role: 'admin' },
      ga.token,
    );
    expect(create.status).toBe(403);
  });

  it('cannot move users between groups (403), one by one or in bulk', async () => {
    const a = await memberA();
    for (const res of [
      await t.put(`/api/admin/users/${a.id}`, { group_id: groupB.id }, ga.token),
      await t.put(`/api/admin/users/${a.id}`, { group_id: 1 }, ga.token),
      await t.post('/api/admin/users/bulk', { ids: [a.id], action: 'move', group_id: groupB.id }, ga.token),
    ]) {
      expect(res.status, res.text).toBe(403);
    }
    expect((await t.userRow(a.id)).group_id).toBe(groupA.id);
  });

  it('cannot add, deduct or set balances (403), nor give opening credits', async () => {
    const a = await memberA();
    for (const operation of ['add', 'deduct', 'set'] as const) {
      const res = await adjustCredits(t, ga.token, a.id, { operation, amount: 5, reason: 'try' });
      expect(res.status, operation).toBe(403);
    }
    expect((await ledgerRows(t, a.id)).map((r) => r.transaction_type)).toEqual(['system_reward']);
    const create = await t.post(
      '/api/admin/users',
      { username: `q_${unique()}`, email: `q_${unique()}@example.com`, password: 'secret123', credits_quota: 99999 },
      ga.token,
    );
    expect(create.status).toBe(403);
  });

  it("distributes and reclaims pool credits for their group's plain users", async () => {
    const a = await memberA();
    const give = await poolTransfer(t, ga.token, groupA.id, { user_id: a.id, amount: 10 });
    expect(give.status, give.text).toBe(200);
    expect(give.body.data.transaction).toMatchObject({ transaction_type: 'group_distribute', operator_id: ga.id });
    const take = await poolTransfer(t, ga.token, groupA.id, { user_id: a.id, amount: 4, operation: 'reclaim' });
    expect(take.status).toBe(200);
    expect((await ledgerRows(t, a.id)).map((r) => [r.transaction_type, r.amount])).toEqual([
      ['system_reward', 1000],
      ['group_distribute', 10],
      ['group_reclaim', -4],
    ]);
    await expectPoolConsistent(t, groupA.id);
  });

  it('cannot touch another group or its members through a pool (404)', async () => {
    const poolB = (
      await t.db.selectFrom('user_groups').selectAll().where('id', '=', groupB.id).executeTakeFirstOrThrow()
    ).credits_pool_used;
    for (const res of [
      await poolTransfer(t, ga.token, groupB.id, { user_id: userB.id, amount: 5 }),
      await poolTransfer(t, ga.token, groupB.id, { user_id: userB.id, amount: 5, operation: 'reclaim' }),
      await poolTransfer(t, ga.token, groupA.id, { user_id: userB.id, amount: 5 }),
    ]) {
      expect(res.status, res.text).toBe(404);
    }
    expect(
      (await t.db.selectFrom('user_groups').selectAll().where('id', '=', groupB.id).executeTakeFirstOrThrow())
        .credits_pool_used,
    ).toBe(poolB);
    expect((await ledgerRows(t, userB.id)).map((r) => r.transaction_type)).toEqual(['system_reward']);
  });

  it("cannot move pool credits to or from their group's administrators, themselves included (403)", async () => {
    const remaining = async () => (await t.get<Group>(`/api/admin/user-groups/${groupA.id}`, ga.token)).body.data;
    const before = await remaining();
    for (const target of [ga.id, otherAdminA.id, superInA.id]) {
      for (const operation of ['distribute', 'reclaim'] as const) {
        const res = await poolTransfer(t, ga.token, groupA.id, { user_id: target, amount: 5, operation });
        expect(res.status, `${target} ${operation}: ${res.text}`).toBe(403);
      }
      expect((await ledgerRows(t, target)).map((r) => r.transaction_type)).toEqual(['system_reward']);
    }
    expect((await remaining()).credits_pool_remaining).toBe(before.credits_pool_remaining);
  });

  it('sees only their own group among the groups', async () => {
    const list = await t.get<Group[]>('/api/admin/user-groups?limit=100', ga.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((g) => g.id)).toEqual([groupA.id]);
    expect(list.body.pagination?.total).toBe(1);
    expect((await t.get(`/api/admin/user-groups/${groupA.id}`, ga.token)).status).toBe(200);
    expect((await t.get(`/api/admin/user-groups/${groupB.id}`, ga.token)).status).toBe(404);
    expect((await t.get('/api/admin/user-groups/1', ga.token)).status).toBe(404);
  });

  it('cannot create, edit or delete groups, nor change pool, limit or site config (403)', async () => {
    const calls = [
      () => t.post('/api/admin/user-groups', { name: `mine ${unique()}` }, ga.token),
      () => t.put(`/api/admin/user-groups/${groupA.id}`, { name: 'renamed' }, ga.token),
      () => t.put(`/api/admin/user-groups/${groupB.id}`, { name: 'renamed' }, ga.token),
      () => t.request('DELETE', `/api/admin/user-groups/${groupA.id}`, { token: ga.token }),
      () => t.put(`/api/admin/user-groups/${groupA.id}/credits-pool`, { credits_pool: 1_000_000 }, ga.token),
      () => t.put(`/api/admin/user-groups/${groupA.id}/user-limit`, { user_limit: 1000 }, ga.token),
      () =>
        t.put(
          `/api/admin/user-groups/${groupA.id}/site-config`,
          { site_name: 'x', site_logo: null, enabled: true },
          ga.token,
        ),
    ];
    const before = await t.db.selectFrom('user_groups').selectAll().orderBy('id').execute();
    for (const call of calls) {
      const res = await call();
      expect(res.status, res.text).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    const after = await t.db.selectFrom('user_groups').selectAll().orderBy('id').execute();
    expect(after.map(({ updated_at: _u, ...g }) => g)).toEqual(before.map(({ updated_at: _u, ...g }) => g));
  });

  it('cannot read, verify or export the audit log (403)', async () => {
    for (const url of ['/api/admin/audit-logs', '/api/admin/audit-logs/verify', '/api/admin/audit-logs/export.csv']) {
      const res = await t.get(url, ga.token);
      expect(res.status, url).toBe(403);
    }
  });

  it('creates users in their own group with role user, and nowhere else', async () => {
    const s = unique();
    const res = await t.post<AdminUser>(
      '/api/admin/users',
      { username: `n_${s}`, email: `n_${s}@example.com`, password: 'secret123' },
      ga.token,
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ group_id: groupA.id, role: 'user' });
    const row = await t.userRow(res.body.data.id);
    expect(row).toMatchObject({ group_id: groupA.id, role: 'user' });
    const same = await t.post<AdminUser>(
      '/api/admin/users',
      { username: `o_${s}`, email: `o_${s}@example.com`, password: 'secret123', group_id: groupA.id, role: 'user' },
      ga.token,
    );
    expect(same.status).toBe(201);
    const elsewhere = await t.post(
      '/api/admin/users',
      { username: `p_${s}`, email: `p_${s}@example.com`, password: 'secret123', group_id: groupB.id },
      ga.token,
    );
    expect(elsewhere.status).toBe(403);
    expect(
      await t.db.selectFrom('users').select('id').where('username', '=', `p_${s}`).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('leaves a plain user with no admin access at all', async () => {
    const a = await memberA();
    const tk = (await t.tokensFor(a.email, a.password)).accessToken;
    for (const url of ['/api/admin/users', '/api/admin/user-groups', '/api/admin/audit-logs']) {
      expect((await t.get(url, tk)).status, url).toBe(403);
    }
  });
});
