import type {
  AdminUser,
  AdminUserDetail,
  BulkUsersResult,
  CreditOperationResult,
  Pagination,
} from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adjustCredits,
  adminSession,
  countRows,
  createGroupAsAdmin,
  createUserAsAdmin,
  expectEveryLedgerConsistent,
  ledgerRows,
  uniquePhone,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const userUrl = (id: number) => `/api/admin/users/${id}`;

describe('admin users', () => {
  let t: TestApp;
  let token: string;
  let adminId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const session = await t.loginAsAdmin();
    token = session.accessToken;
    adminId = session.user.id;
  });
  afterEach(async () => {
    await expectEveryLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const list = (query: string, as = token) => t.get<AdminUser[]>(`/api/admin/users?${query}`, as);
  const ids = (users: { id: number }[]) => users.map((u) => u.id);
  const me = (accessToken: string) => t.get('/api/auth/me', accessToken);

  describe('list', () => {
    it('searches username, email and phone, case-insensitively, with LIKE wildcards taken literally', async () => {
      const tag = unique();
      const byName = await createUserAsAdmin(t, token, { username: `Srch_${tag}` });
      const byEmail = await createUserAsAdmin(t, token, { email: `mail.${tag}@example.org` });
      const phone = uniquePhone();
      const byPhone = await createUserAsAdmin(t, token, { phone });

      expect(ids((await list(`search=srch_${tag.toUpperCase()}`)).body.data)).toEqual([byName.id]);
      expect(ids((await list(`search=${encodeURIComponent(`MAIL.${tag}@`)}`)).body.data)).toEqual([byEmail.id]);
      expect(ids((await list(`search=${phone.slice(2)}`)).body.data)).toEqual([byPhone.id]);
      expect((await list(`search=${tag}`)).body.pagination?.total).toBe(2);
      // `%` and `_` are characters here, not wildcards.
      expect((await list('search=%25')).body.data).toEqual([]);
      expect((await list(`search=S_ch_${tag}`)).body.data).toEqual([]);
    });

    it('filters by role, status and group, and combines the filters', async () => {
      const group = await createGroupAsAdmin(t, token);
      const plain = await createUserAsAdmin(t, token, { group_id: group.id });
      const disabled = await createUserAsAdmin(t, token, { group_id: group.id });
      const admin = await createUserAsAdmin(t, token, { group_id: group.id, role: 'admin' });
      await createUserAsAdmin(t, token); // default group, never in the answers below
      expect((await t.put(`${userUrl(disabled.id)}/status`, { status: 'inactive' }, token)).status).toBe(200);

      const inGroup = await list(`group_id=${group.id}&sort=id`);
      expect(ids(inGroup.body.data)).toEqual([plain.id, disabled.id, admin.id]);
      expect(ids((await list(`group_id=${group.id}&role=admin`)).body.data)).toEqual([admin.id]);
      expect(ids((await list(`group_id=${group.id}&status=inactive`)).body.data)).toEqual([disabled.id]);
      expect(ids((await list(`group_id=${group.id}&status=active&role=user`)).body.data)).toEqual([plain.id]);
      const inactiveEverywhere = await list('status=inactive&limit=100');
      expect(inactiveEverywhere.body.data.every((u) => u.status === 'inactive')).toBe(true);
      expect(ids(inactiveEverywhere.body.data)).toContain(disabled.id);
      const admins = await list('role=super_admin');
      expect(ids(admins.body.data)).toEqual([adminId]);
    });

    it('sorts ascending and descending by the requested field', async () => {
      const group = await createGroupAsAdmin(t, token);
      const tag = unique();
      const b = await createUserAsAdmin(t, token, { group_id: group.id, username: `b_${tag}` });
      const c = await createUserAsAdmin(t, token, { group_id: group.id, username: `C_${tag}` });
      const a = await createUserAsAdmin(t, token, { group_id: group.id, username: `a_${tag}` });
      expect(ids((await list(`group_id=${group.id}&sort=username`)).body.data)).toEqual([a.id, b.id, c.id]);
      expect(ids((await list(`group_id=${group.id}&sort=-username`)).body.data)).toEqual([c.id, b.id, a.id]);
      expect(ids((await list(`group_id=${group.id}&sort=id`)).body.data)).toEqual([b.id, c.id, a.id]);
      // Newest first by default.
      expect(ids((await list(`group_id=${group.id}`)).body.data)).toEqual([a.id, c.id, b.id]);

      expect((await adjustCredits(t, token, c.id, { operation: 'add', amount: 500, reason: 'sort' })).status).toBe(200);
      expect((await adjustCredits(t, token, b.id, { operation: 'add', amount: 50, reason: 'sort' })).status).toBe(200);
      const byCredits = ids((await list(`group_id=${group.id}&sort=-credits_remaining`)).body.data);
      expect(byCredits.slice(0, 2)).toEqual([c.id, b.id]);
    });

    it('answers the pagination shape and clamps the limit to 100', async () => {
      const group = await createGroupAsAdmin(t, token);
      const users = [];
      for (let i = 0; i < 3; i += 1) users.push(await createUserAsAdmin(t, token, { group_id: group.id }));

      const first = await list(`group_id=${group.id}&sort=id&limit=2&page=1`);
      expect(first.status).toBe(200);
      expect(ids(first.body.data)).toEqual([users[0]!.id, users[1]!.id]);
      expect(first.body.pagination).toEqual<Pagination>({
        page: 1,
        limit: 2,
        total: 3,
        totalPages: 2,
        hasNext: true,
        hasPrev: false,
      });
      const second = await list(`group_id=${group.id}&sort=id&limit=2&page=2`);
      expect(ids(second.body.data)).toEqual([users[2]!.id]);
      expect(second.body.pagination).toEqual<Pagination>({
        page: 2,
        limit: 2,
        total: 3,
        totalPages: 2,
        hasNext: false,
        hasPrev: true,
      });
      const beyond = await list(`group_id=${group.id}&limit=2&page=5`);
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.pagination).toMatchObject({ page: 5, total: 3, hasNext: false, hasPrev: true });

      const clamped = await list('limit=1000');
      expect(clamped.status).toBe(200);
      expect(clamped.body.pagination?.limit).toBe(100);
    });
  });

  describe('create', () => {
    it('creates an account whose opening credits are one system_reward row by the operator', async () => {
      const phone = uniquePhone();
      const u = await createUserAsAdmin(t, token, { credits_quota: 150, token_quota: 7000, phone, remark: '销售部' });
      expect(u).toMatchObject({ role: 'user', status: 'active', phone, remark: '销售部', token_quota: 7000 });
      expect(u.credits_stats.remaining).toBe(150);
      const rows = await ledgerRows(t, u.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        transaction_type: 'system_reward',
        amount: 150,
        balance_after: 150,
        operator_id: adminId,
      });
      expect(await t.ledgerSum(u.id)).toBe(150);
      const row = await t.userRow(u.id);
      expect(row.credits_quota - row.credits_used).toBe(150);
      // The account works at once.
      const session = await t.tokensFor(u.username, u.password);
      expect(session.user.id).toBe(u.id);
    });

    it('refuses a taken email, username or phone with 409 and creates nothing', async () => {
      const phone = uniquePhone();
      const taken = await createUserAsAdmin(t, token, { phone });
      const before = await countRows(t, 'users');
      const cases: [Record<string, unknown>, string][] = [
        [{ email: taken.email.toUpperCase() }, 'CONFLICT_EMAIL'],
        [{ username: taken.username.toUpperCase() }, 'CONFLICT_USERNAME'],
        [{ phone }, 'CONFLICT_PHONE'],
      ];
      for (const [field, code] of cases) {
        const suffix = unique();
        const res = await t.post(
          '/api/admin/users',
          { username: `n_${suffix}`, email: `n_${suffix}@example.com`, password: 'secret123', ...field },
          token,
        );
        expect(res.status, code).toBe(409);
        expect(res.body.error).toBe(code);
      }
      expect(await countRows(t, 'users')).toBe(before);
    });

    it('refuses a group that does not exist and a full group', async () => {
      const before = await countRows(t, 'users');
      const missing = await t.post(
        '/api/admin/users',
        { username: `x_${unique()}`, email: `x_${unique()}@e.com`, password: 'secret123', group_id: 999999 },
        token,
      );
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('VALIDATION_FAILED');
      const full = await createGroupAsAdmin(t, token, { user_limit: 1 });
      await createUserAsAdmin(t, token, { group_id: full.id });
      const res = await t.post(
        '/api/admin/users',
        { username: `x_${unique()}`, email: `x_${unique()}@e.com`, password: 'secret123', group_id: full.id },
        token,
      );
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('GROUP_FULL');
      expect(await countRows(t, 'users')).toBe(before + 1);
    });
  });

  describe('detail', () => {
    it('shows the live sessions, the last sign-in and the remark', async () => {
      const u = await createUserAsAdmin(t, token, { remark: 'VIP customer' });
      const fresh = await t.get<AdminUserDetail>(userUrl(u.id), token);
      expect(fresh.status).toBe(200);
      expect(fresh.body.data).toMatchObject({ id: u.id, remark: 'VIP customer', last_login_at: null, sessions: [] });

      const s1 = await t.tokensFor(u.email, u.password);
      await t.tokensFor(u.username, u.password);
      const detail = await t.get<AdminUserDetail>(userUrl(u.id), token);
      expect(detail.body.data.last_login_at).not.toBeNull();
      expect(detail.body.data.sessions).toHaveLength(2);
      const live = await t.db
        .selectFrom('auth_sessions')
        .select('id')
        .where('user_id', '=', u.id)
        .where('revoked_at', 'is', null)
        .execute();
      expect(detail.body.data.sessions.map((s) => s.id).sort()).toEqual(live.map((r) => r.id).sort());
      // Devices only: no token material leaves the server.
      for (const s of detail.body.data.sessions) {
        expect(Object.keys(s).sort()).toEqual(['created_at', 'id', 'ip', 'last_used_at', 'user_agent']);
      }
      // A signed-out device leaves the list.
      expect((await t.post('/api/auth/logout', { refreshToken: s1.refreshToken }, s1.accessToken)).status).toBe(200);
      expect((await t.get<AdminUserDetail>(userUrl(u.id), token)).body.data.sessions).toHaveLength(1);
      expect((await t.get(userUrl(999999), token)).status).toBe(404);
    });
  });

  describe('edit', () => {
    it('changes username, email, phone, remark and token quota', async () => {
      const u = await createUserAsAdmin(t, token);
      const suffix = unique();
      const phone = uniquePhone();
      const res = await t.put<AdminUser>(
        userUrl(u.id),
        { username: `e_${suffix}`, email: `E_${suffix}@Example.com`, phone, remark: 'moved desks', token_quota: 123 },
        token,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        username: `e_${suffix}`,
        email: `e_${suffix}@example.com`,
        phone,
        remark: 'moved desks',
        token_quota: 123,
      });
      const detail = await t.get<AdminUserDetail>(userUrl(u.id), token);
      expect(detail.body.data).toMatchObject({
        username: `e_${suffix}`,
        phone,
        remark: 'moved desks',
        token_quota: 123,
      });
      // The new identity signs in; the old one no longer does.
      expect((await t.tokensFor(`e_${suffix}@example.com`, u.password)).user.id).toBe(u.id);
      expect((await t.post('/api/auth/login', { account: u.email, password: u.password })).status).toBe(401);
      // Clearing phone and remark.
      const cleared = await t.put<AdminUser>(userUrl(u.id), { phone: null, remark: null }, token);
      expect(cleared.body.data).toMatchObject({ phone: null, remark: null, username: `e_${suffix}` });
    });

    it('refuses an identity another account holds', async () => {
      const phone = uniquePhone();
      const other = await createUserAsAdmin(t, token, { phone });
      const u = await createUserAsAdmin(t, token);
      for (const [body, code] of [
        [{ email: other.email }, 'CONFLICT_EMAIL'],
        [{ username: other.username.toUpperCase() }, 'CONFLICT_USERNAME'],
        [{ phone }, 'CONFLICT_PHONE'],
      ] as const) {
        const res = await t.put(userUrl(u.id), body, token);
        expect(res.status, code).toBe(409);
        expect(res.body.error).toBe(code);
      }
      // Its own identity is not a conflict.
      expect((await t.put(userUrl(u.id), { email: u.email, username: u.username }, token)).status).toBe(200);
      expect((await t.userRow(u.id)).email).toBe(u.email);
    });

    it('moves a user to another group, and refuses a full group with 409 GROUP_FULL', async () => {
      const target = await createGroupAsAdmin(t, token, { user_limit: 1 });
      const u = await createUserAsAdmin(t, token);
      const moved = await t.put<AdminUser>(userUrl(u.id), { group_id: target.id }, token);
      expect(moved.status).toBe(200);
      expect(moved.body.data).toMatchObject({ group_id: target.id, group_name: target.name });
      // Saving the same group again is not a join.
      expect((await t.put(userUrl(u.id), { group_id: target.id, remark: 'same' }, token)).status).toBe(200);

      const v = await createUserAsAdmin(t, token);
      const full = await t.put(userUrl(v.id), { group_id: target.id, remark: 'should not stick' }, token);
      expect(full.status).toBe(409);
      expect(full.body.error).toBe('GROUP_FULL');
      const row = await t.userRow(v.id);
      expect(row.group_id).toBe(v.group_id);
      expect(row.remark).toBeNull();
      expect((await t.put(userUrl(v.id), { group_id: 999999 }, token)).status).toBe(400);
    });

    it('lets only the super administrator change a role or grant extra permissions', async () => {
      const manager = await adminSession(t, token, { extra_permissions: ['user.manage'] });
      const u = await createUserAsAdmin(t, token);

      const role = await t.put(userUrl(u.id), { role: 'admin' }, manager.token);
      expect(role.status).toBe(403);
      expect(role.body.error).toBe('FORBIDDEN');
      const grant = await t.put(userUrl(u.id), { extra_permissions: ['credits.manage'] }, manager.token);
      expect(grant.status).toBe(403);
      // Nothing of a refused edit sticks, not even its other fields.
      const mixed = await t.put(userUrl(u.id), { remark: 'half', role: 'super_admin' }, manager.token);
      expect(mixed.status).toBe(403);
      expect((await t.userRow(u.id)).remark).toBeNull();
      // The rest of an edit is theirs to make, and naming the same role is no change.
      const ok = await t.put<AdminUser>(
        userUrl(u.id),
        { remark: 'by manager', role: 'user', extra_permissions: [] },
        manager.token,
      );
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ remark: 'by manager', role: 'user', extra_permissions: [] });
      expect(
        await t.db.selectFrom('user_permissions').select('permission').where('user_id', '=', u.id).execute(),
      ).toEqual([]);
      const row = await t.userRow(u.id);
      expect(row.role).toBe('user');

      const promoted = await t.put<AdminUser>(
        userUrl(u.id),
        { role: 'admin', extra_permissions: ['credits.manage', 'user.manage'] },
        token,
      );
      expect(promoted.status).toBe(200);
      expect(promoted.body.data).toMatchObject({ role: 'admin', extra_permissions: ['credits.manage', 'user.manage'] });
      // The grant takes effect: the promoted user may now list every user.
      const session = await t.tokensFor(u.email, u.password);
      expect((await list('limit=1', session.accessToken)).status).toBe(200);
    });

    it('keeps a manager off a super administrator account', async () => {
      const manager = await adminSession(t, token, { extra_permissions: ['user.manage'] });
      const res = await t.put(userUrl(adminId), { remark: 'mine now' }, manager.token);
      expect(res.status).toBe(403);
      expect((await t.put(`${userUrl(adminId)}/status`, { status: 'inactive' }, manager.token)).status).toBe(403);
      expect((await t.userRow(adminId)).status).toBe('active');
    });
  });

  describe('known fields in the edit call', () => {
    it('applies status like the status call: disabling ends the sessions, and it is audited', async () => {
      const u = await createUserAsAdmin(t, token);
      const session = await t.tokensFor(u.email, u.password);
      const off = await t.put<AdminUser>(userUrl(u.id), { status: 'inactive', remark: 'left' }, token);
      expect(off.status).toBe(200);
      expect(off.body.data).toMatchObject({ status: 'inactive', remark: 'left' });
      expect((await t.userRow(u.id)).status).toBe('inactive');
      expect([401, 403]).toContain((await me(session.accessToken)).status);
      expect((await t.post('/api/auth/refresh', { refreshToken: session.refreshToken })).status).toBeGreaterThanOrEqual(
        400,
      );
      const audit = await t.db
        .selectFrom('audit_logs')
        .select('changes')
        .where('action', '=', 'user.update')
        .where('target_id', '=', String(u.id))
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(String(audit.changes)).toContain('inactive');
      const on = await t.put<AdminUser>(userUrl(u.id), { status: 'active' }, token);
      expect(on.body.data.status).toBe('active');
      expect((await me((await t.tokensFor(u.email, u.password)).accessToken)).status).toBe(200);
      expect((await t.put(userUrl(u.id), { status: 'gone' }, token)).status).toBe(400);
    });

    it('keeps the status rules: not oneself, and a group administrator only inside the group', async () => {
      expect((await t.put(userUrl(adminId), { status: 'inactive' }, token)).body.error).toBe('SELF_ACTION_NOT_ALLOWED');
      const group = await createGroupAsAdmin(t, token);
      const groupAdmin = await adminSession(t, token, { group_id: group.id });
      const member = await createUserAsAdmin(t, token, { group_id: group.id });
      const outsider = await createUserAsAdmin(t, token);
      expect((await t.put(userUrl(outsider.id), { status: 'inactive' }, groupAdmin.token)).status).toBe(404);
      expect((await t.userRow(outsider.id)).status).toBe('active');
      const res = await t.put<AdminUser>(userUrl(member.id), { status: 'inactive' }, groupAdmin.token);
      expect(res.status).toBe(200);
      expect((await t.userRow(member.id)).status).toBe('inactive');
    });

    it('refuses a changed credits_quota with 400 naming the credits call, and accepts an unchanged one', async () => {
      const u = await createUserAsAdmin(t, token, { credits_quota: 50 });
      const rowsBefore = (await ledgerRows(t, u.id)).length;
      for (const lang of ['en-US', 'zh-CN']) {
        const res = await t.put(userUrl(u.id), { credits_quota: 900, remark: 'x' }, token, lang);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
        expect(res.body.data?.errors?.join()).toContain('/admin/users/{id}/credits');
      }
      expect((await t.userRow(u.id)).credits_quota).toBe(50);
      expect((await t.userRow(u.id)).remark).toBeNull();
      expect(await ledgerRows(t, u.id)).toHaveLength(rowsBefore);
      const same = await t.put<AdminUser>(userUrl(u.id), { credits_quota: 50, remark: 'same' }, token);
      expect(same.status).toBe(200);
      expect(same.body.data.remark).toBe('same');
    });

    it('refuses a changed credits_expire_at with 400 naming the credits call, and accepts the stored one', async () => {
      const u = await createUserAsAdmin(t, token, { credits_quota: 50 });
      const extended = await t.post<CreditOperationResult>(
        `/api/admin/users/${u.id}/credits`,
        { operation: 'add', amount: 1, reason: 'expiry', extend_days: 30 },
        token,
      );
      expect(extended.status).toBe(200);
      const stored = extended.body.data.user.credits_expire_at!;
      expect(stored).not.toBeNull();
      const later = new Date(Date.parse(stored) + 86_400_000).toISOString();
      for (const [lang, value] of [
        ['en-US', later],
        ['zh-CN', null],
        ['en-US', 'not a date'],
      ] as const) {
        const res = await t.put(userUrl(u.id), { credits_expire_at: value, remark: 'x' }, token, lang);
        expect(res.status, String(value)).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
        expect(res.body.data?.errors?.join()).toContain('/admin/users/{id}/credits');
      }
      expect((await t.userRow(u.id)).credits_expire_at).toBe(stored);
      expect((await t.userRow(u.id)).remark).toBeNull();

      // The whole user echoed back, even with the date re-serialised, is no change.
      const whole = (await t.get<AdminUser>(userUrl(u.id), token)).body.data;
      const reserialised = new Date(Date.parse(stored)).toISOString().replace('Z', '+00:00');
      const same = await t.put<AdminUser>(
        userUrl(u.id),
        { ...whole, credits_expire_at: reserialised, remark: 'same' },
        token,
      );
      expect(same.status).toBe(200);
      expect(same.body.data).toMatchObject({ remark: 'same', credits_expire_at: stored });

      // A user without an expiry may echo null.
      const plain = await createUserAsAdmin(t, token);
      const nulls = await t.put<AdminUser>(userUrl(plain.id), { credits_expire_at: null, remark: 'n' }, token);
      expect(nulls.status).toBe(200);
      expect(nulls.body.data.credits_expire_at).toBeNull();
    });

    it('still strips fields it does not know', async () => {
      const u = await createUserAsAdmin(t, token);
      const res = await t.put<AdminUser>(userUrl(u.id), { remark: 'ok', favourite_colour: 'teal' }, token);
      expect(res.status).toBe(200);
      expect(res.body.data.remark).toBe('ok');
    });
  });

  describe('enable and disable', () => {
    it('ends the sessions of a disabled account at once, and enabling lets it sign in again', async () => {
      const u = await createUserAsAdmin(t, token);
      const session = await t.tokensFor(u.email, u.password);
      expect((await me(session.accessToken)).status).toBe(200);

      const off = await t.put<AdminUser>(`${userUrl(u.id)}/status`, { status: 'inactive' }, token);
      expect(off.status).toBe(200);
      expect(off.body.data.status).toBe('inactive');
      expect([401, 403]).toContain((await me(session.accessToken)).status);
      expect((await t.post('/api/auth/refresh', { refreshToken: session.refreshToken })).status).toBeGreaterThanOrEqual(
        400,
      );
      const login = await t.post('/api/auth/login', { account: u.email, password: u.password });
      expect(login.body.error).toBe('ACCOUNT_DISABLED');

      const on = await t.put<AdminUser>(`${userUrl(u.id)}/status`, { status: 'active' }, token);
      expect(on.body.data.status).toBe('active');
      // Enabling does not bring the ended session back; signing in again works.
      expect((await me(session.accessToken)).status).toBe(401);
      expect((await me((await t.tokensFor(u.email, u.password)).accessToken)).status).toBe(200);
    });
  });

  describe('reset password', () => {
    it('ends every session; the new password signs in, the old one does not', async () => {
      const u = await createUserAsAdmin(t, token);
      const session = await t.tokensFor(u.email, u.password);
      const res = await t.put(`${userUrl(u.id)}/password`, { newPassword: 'brandnew456' }, token);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: u.id });
      expect((await me(session.accessToken)).status).toBe(401);
      expect((await t.post('/api/auth/login', { account: u.email, password: u.password })).status).toBe(401);
      expect((await t.tokensFor(u.email, 'brandnew456')).user.id).toBe(u.id);
      const short = await t.put(`${userUrl(u.id)}/password`, { newPassword: '123' }, token);
      expect(short.status).toBe(400);
      expect((await t.tokensFor(u.email, 'brandnew456')).user.id).toBe(u.id);
    });
  });

  describe('retire', () => {
    it('ends sessions, hides the account, frees its identity for registration and keeps its ledger', async () => {
      const phone = uniquePhone();
      const u = await createUserAsAdmin(t, token, { phone, credits_quota: 40 });
      await adjustCredits(t, token, u.id, { operation: 'add', amount: 5, reason: 'bonus' });
      const session = await t.tokensFor(u.email, u.password);
      const ledgerBefore = await ledgerRows(t, u.id);
      expect(ledgerBefore).toHaveLength(2);

      const res = await t.request('DELETE', userUrl(u.id), { token });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: u.id });
      expect((await me(session.accessToken)).status).toBe(401);
      expect(ids((await list(`search=${u.username}`)).body.data)).toEqual([]);
      expect((await t.get(userUrl(u.id), token)).status).toBe(404);
      expect((await t.request('DELETE', userUrl(u.id), { token })).status).toBe(404);
      expect((await t.put(userUrl(u.id), { remark: 'ghost' }, token)).status).toBe(404);
      expect((await adjustCredits(t, token, u.id, { operation: 'add', amount: 1, reason: 'ghost' })).status).toBe(404);
      expect((await t.post('/api/auth/login', { account: u.email, password: u.password })).status).toBe(401);

      const again = await t.registerUser({ email: u.email, username: u.username, phone });
      expect(again.id).not.toBe(u.id);
      expect(await ledgerRows(t, u.id)).toEqual(ledgerBefore);
      expect(ids((await list(`search=${u.username}`)).body.data)).toEqual([again.id]);
    });

    it('frees the identity for an administrator-created account too', async () => {
      const phone = uniquePhone();
      const u = await createUserAsAdmin(t, token, { phone });
      expect((await t.request('DELETE', userUrl(u.id), { token })).status).toBe(200);
      const again = await createUserAsAdmin(t, token, { email: u.email, username: u.username, phone });
      expect(again.id).not.toBe(u.id);
      expect((await t.tokensFor(u.email, again.password)).user.id).toBe(again.id);
    });
  });

  describe('self-protection', () => {
    it('refuses to disable, retire or demote the acting account', async () => {
      for (const [method, url, body] of [
        ['PUT', `${userUrl(adminId)}/status`, { status: 'inactive' }],
        ['DELETE', userUrl(adminId), undefined],
        ['PUT', userUrl(adminId), { role: 'user' }],
        ['POST', '/api/admin/users/bulk', { ids: [adminId], action: 'disable' }],
      ] as const) {
        const res = await t.request(method, url, { token, ...(body ? { body } : {}) });
        expect(res.status, url).toBe(400);
        expect(res.body.error, url).toBe('SELF_ACTION_NOT_ALLOWED');
      }
      const row = await t.userRow(adminId);
      expect(row).toMatchObject({ status: 'active', role: 'super_admin', deleted_at: null });
      expect((await me(token)).status).toBe(200);
      // Editing other fields of one's own account is allowed.
      expect((await t.put(userUrl(adminId), { remark: 'me' }, token)).status).toBe(200);
    });

    it('refuses a manager demoting themselves too', async () => {
      const self = await adminSession(t, token, { extra_permissions: ['user.manage'] });
      expect((await t.put(`${userUrl(self.user.id)}/status`, { status: 'inactive' }, self.token)).body.error).toBe(
        'SELF_ACTION_NOT_ALLOWED',
      );
      expect((await t.request('DELETE', userUrl(self.user.id), { token: self.token })).body.error).toBe(
        'SELF_ACTION_NOT_ALLOWED',
      );
      expect((await t.userRow(self.user.id)).status).toBe('active');
    });
  });

  describe('bulk', () => {
    const bulk = (body: unknown, as = token) => t.post<BulkUsersResult>('/api/admin/users/bulk', body, as);
    const statuses = async (userIds: number[]) =>
      await t.db
        .selectFrom('users')
        .select(['id', 'status', 'group_id'])
        .where('id', 'in', userIds)
        .orderBy('id')
        .execute();

    it('disables, enables and moves many users at once', async () => {
      const group = await createGroupAsAdmin(t, token);
      const users = [
        await createUserAsAdmin(t, token),
        await createUserAsAdmin(t, token),
        await createUserAsAdmin(t, token),
      ];
      const userIds = ids(users);
      const session = await t.tokensFor(users[0]!.email, users[0]!.password);

      const off = await bulk({ ids: userIds, action: 'disable' });
      expect(off.status).toBe(200);
      expect(off.body.data).toEqual({ updated: 3, ids: userIds });
      expect((await statuses(userIds)).map((r) => r.status)).toEqual(['inactive', 'inactive', 'inactive']);
      // The ended session is told why.
      expect((await me(session.accessToken)).body.error).toBe('ACCOUNT_DISABLED');

      // Only what changes is counted.
      await t.put(`${userUrl(users[1]!.id)}/status`, { status: 'active' }, token);
      const on = await bulk({ ids: userIds, action: 'enable' });
      expect(on.body.data).toEqual({ updated: 2, ids: [users[0]!.id, users[2]!.id] });
      expect((await statuses(userIds)).map((r) => r.status)).toEqual(['active', 'active', 'active']);

      const move = await bulk({ ids: userIds, action: 'move', group_id: group.id });
      expect(move.body.data.updated).toBe(3);
      expect((await statuses(userIds)).map((r) => r.group_id)).toEqual([group.id, group.id, group.id]);
      expect(
        (await t.get<{ user_count: number }>(`/api/admin/user-groups/${group.id}`, token)).body.data.user_count,
      ).toBe(3);
    });

    it('changes nothing when one id is unknown, retired or outside the actor’s scope', async () => {
      const groupA = await createGroupAsAdmin(t, token);
      const groupB = await createGroupAsAdmin(t, token);
      const a1 = await createUserAsAdmin(t, token, { group_id: groupA.id });
      const a2 = await createUserAsAdmin(t, token, { group_id: groupA.id });
      const b1 = await createUserAsAdmin(t, token, { group_id: groupB.id });
      const retired = await createUserAsAdmin(t, token, { group_id: groupA.id });
      await t.request('DELETE', userUrl(retired.id), { token });
      const before = await statuses([a1.id, a2.id, b1.id]);

      for (const extra of [999999, retired.id]) {
        const res = await bulk({ ids: [a1.id, a2.id, extra], action: 'disable' });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('NOT_FOUND');
      }
      const groupAdmin = await adminSession(t, token, { group_id: groupA.id });
      const out = await bulk({ ids: [a1.id, a2.id, b1.id], action: 'disable' }, groupAdmin.token);
      expect(out.status).toBe(404);
      expect(out.body.error).toBe('NOT_FOUND');
      expect(await statuses([a1.id, a2.id, b1.id])).toEqual(before);

      // Inside their group the same call works.
      const own = await bulk({ ids: [a1.id, a2.id], action: 'disable' }, groupAdmin.token);
      expect(own.status).toBe(200);
      expect((await statuses([a1.id, a2.id])).map((r) => r.status)).toEqual(['inactive', 'inactive']);
      // Moving is never a group administrator's call.
      const move = await bulk({ ids: [a1.id], action: 'move', group_id: groupB.id }, groupAdmin.token);
      expect(move.status).toBe(403);
      expect((await t.userRow(a1.id)).group_id).toBe(groupA.id);
    });

    it('moves all or none into a group with a member limit', async () => {
      const small = await createGroupAsAdmin(t, token, { user_limit: 2 });
      const users = [
        await createUserAsAdmin(t, token),
        await createUserAsAdmin(t, token),
        await createUserAsAdmin(t, token),
      ];
      const res = await bulk({ ids: ids(users), action: 'move', group_id: small.id });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('GROUP_FULL');
      expect((await statuses(ids(users))).map((r) => r.group_id)).toEqual(users.map((u) => u.group_id));
      expect((await bulk({ ids: ids(users).slice(0, 2), action: 'move', group_id: small.id })).status).toBe(200);
      const missing = await bulk({ ids: [users[2]!.id], action: 'move', group_id: 999999 });
      expect(missing.status).toBe(400);
    });
  });
});
