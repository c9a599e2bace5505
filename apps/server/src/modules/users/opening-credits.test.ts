import type { AdminUser, Group } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSession,
  createGroupAsAdmin,
  createUserAsAdmin,
  expectEveryLedgerConsistent,
  expectPoolConsistent,
  importCsv,
  ledgerRows,
  poolTransfer,
  toCsv,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

/** The site's opening credits (the settings' default). */
const OPENING = 1000;

/**
 * Where a new account's opening credits come from: its group's pool when the group has
 * one (refused when short), the site otherwise — except for accounts a group
 * administrator makes, which open with none. No path mints credits outside that rule.
 */
describe('opening credits', () => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterEach(async () => {
    await expectEveryLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const setPool = async (groupId: number, credits_pool: number) => {
    const res = await t.put<Group>(`/api/admin/user-groups/${groupId}/credits-pool`, { credits_pool }, superToken);
    expect(res.status, res.text).toBe(200);
  };
  const poolOf = (groupId: number) =>
    t.db.selectFrom('user_groups').selectAll().where('id', '=', groupId).executeTakeFirstOrThrow();
  const poolRows = (groupId: number) =>
    t.db.selectFrom('group_pool_transactions').selectAll().where('group_id', '=', groupId).orderBy('id').execute();
  const newUserBody = () => {
    const s = unique();
    return { username: `oc_${s}`, email: `oc_${s}@example.com`, password: 'secret123' };
  };
  const usersNamed = (username: string) =>
    t.db.selectFrom('users').select('id').where('username', '=', username).execute();

  /** A group with a group administrator signed in, and a pool of `pool` (none when 0). */
  async function groupWithAdmin(pool: number) {
    const group = await createGroupAsAdmin(t, superToken);
    const { user, token } = await adminSession(t, superToken, { group_id: group.id });
    if (pool > 0) await setPool(group.id, pool);
    return { group, admin: user, token };
  }

  describe('a group administrator', () => {
    it('pays the opening credits of every account they create out of their pool', async () => {
      const { group, admin, token } = await groupWithAdmin(3 * OPENING + 500);
      const made: AdminUser[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await t.post<AdminUser>('/api/admin/users', newUserBody(), token);
        expect(res.status, res.text).toBe(201);
        expect(res.body.data.credits_stats.remaining).toBe(OPENING);
        made.push(res.body.data);
        expect((await poolOf(group.id)).credits_pool_used).toBe((i + 1) * OPENING);
      }
      for (const u of made) {
        expect((await ledgerRows(t, u.id)).map((r) => [r.transaction_type, r.amount, r.description])).toEqual([
          ['system_reward', OPENING, 'server.ledger.openingFromPool'],
        ]);
      }
      expect((await poolRows(group.id)).slice(1)).toMatchObject(
        made.map((u) => ({
          transaction_type: 'group_distribute',
          amount: -OPENING,
          user_id: u.id,
          operator_id: admin.id,
        })),
      );
      await expectPoolConsistent(t, group.id);

      // 500 left: the fourth account is refused, in the caller's language, and nothing is written.
      const body = newUserBody();
      const [en, zh] = [
        await t.post('/api/admin/users', body, token, 'en-US'),
        await t.post('/api/admin/users', body, token, 'zh-CN'),
      ];
      for (const res of [en, zh]) {
        expect(res.status, res.text).toBe(409);
        expect(res.body.error).toBe('POOL_SHORT_FOR_OPENING_CREDITS');
        expect(res.body.data).toMatchObject({ required: OPENING, remaining: 500 });
        expect(res.body.message).toContain('500');
      }
      expect(en.body.message).not.toBe(zh.body.message);
      expect(await usersNamed(body.username)).toEqual([]);
      expect((await poolOf(group.id)).credits_pool_used).toBe(3 * OPENING);
      await expectPoolConsistent(t, group.id);
    });

    it('gives the accounts they create no credits when their group has no pool', async () => {
      const { group, token } = await groupWithAdmin(0);
      const res = await t.post<AdminUser>('/api/admin/users', newUserBody(), token);
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.credits_stats.remaining).toBe(0);
      expect(await ledgerRows(t, res.body.data.id)).toEqual([]);
      expect(await poolRows(group.id)).toEqual([]);
    });

    it('imports users all or nothing against the pool; the dry run names the shortfall', async () => {
      const { group, token } = await groupWithAdmin(2 * OPENING + 1);
      const rows = () => [0, 1, 2].map(() => Object.values(newUserBody()));
      const three = toCsv(['username', 'email', 'password'], rows());

      const dry = await importCsv(t, token, three, true);
      expect(dry.status, dry.text).toBe(200);
      expect(dry.body.data.valid).toBe(0);
      for (const e of dry.body.data.errors) expect(e.errors.join(' ')).toContain(String(2 * OPENING + 1));
      const zh = await importCsv(t, token, three, true, 'zh-CN');
      expect(zh.body.data.errors[0]!.errors).not.toEqual(dry.body.data.errors[0]!.errors);
      const refused = await importCsv(t, token, three, false);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('CSV_INVALID');
      expect((await poolOf(group.id)).credits_pool_used).toBe(0);

      const two = await importCsv(t, token, toCsv(['username', 'email', 'password'], rows().slice(0, 2)), false);
      expect(two.status, two.text).toBe(201);
      expect(two.body.data.created).toBe(2);
      expect((await poolOf(group.id)).credits_pool_used).toBe(2 * OPENING);
      await expectPoolConsistent(t, group.id);
    });

    it('imports users with no credits into a group without a pool', async () => {
      const { group, token } = await groupWithAdmin(0);
      const row = Object.values(newUserBody());
      const res = await importCsv(t, token, toCsv(['username', 'email', 'password'], [row]), false);
      expect(res.status, res.text).toBe(201);
      const [user] = await usersNamed(row[0]!);
      expect((await t.userRow(user!.id)).credits_quota).toBe(0);
      expect(await ledgerRows(t, user!.id)).toEqual([]);
      expect(await poolRows(group.id)).toEqual([]);
    });

    it('lets at most what the pool covers through when creating accounts at once', async () => {
      const { group, token } = await groupWithAdmin(3 * OPENING + 999);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => t.post<AdminUser>('/api/admin/users', newUserBody(), token)),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
      expect((await poolOf(group.id)).credits_pool_used).toBe(3 * OPENING);
      await expectPoolConsistent(t, group.id);
    });

    it('can reclaim opening credits that came from the pool, and only those', async () => {
      const { group, token } = await groupWithAdmin(OPENING);
      const res = await t.post<AdminUser>('/api/admin/users', newUserBody(), token);
      expect(res.status).toBe(201);
      const back = await poolTransfer(t, token, group.id, {
        user_id: res.body.data.id,
        amount: OPENING,
        operation: 'reclaim',
      });
      expect(back.status, back.text).toBe(200);
      expect(back.body.data.group.credits_pool_remaining).toBe(OPENING);
      const again = await poolTransfer(t, token, group.id, {
        user_id: res.body.data.id,
        amount: 1,
        operation: 'reclaim',
      });
      expect(again.body.error).toBe('RECLAIM_EXCEEDS_RECEIVED');
      await expectPoolConsistent(t, group.id);
    });
  });

  describe('a super administrator', () => {
    it('grants the site opening credits in a group without a pool', async () => {
      const group = await createGroupAsAdmin(t, superToken);
      const u = await createUserAsAdmin(t, superToken, { group_id: group.id });
      expect((await ledgerRows(t, u.id)).map((r) => [r.transaction_type, r.amount, r.description])).toEqual([
        ['system_reward', OPENING, 'server.ledger.adminCreateGrant'],
      ]);
    });

    it('draws the opening credits of a member of a pooled group from the pool, the amount they chose too', async () => {
      const group = await createGroupAsAdmin(t, superToken);
      await setPool(group.id, OPENING + 300);
      const u = await createUserAsAdmin(t, superToken, { group_id: group.id });
      expect((await poolOf(group.id)).credits_pool_used).toBe(OPENING);
      expect((await ledgerRows(t, u.id)).map((r) => r.description)).toEqual(['server.ledger.openingFromPool']);
      const chosen = await createUserAsAdmin(t, superToken, { group_id: group.id, credits_quota: 300 });
      expect(chosen.credits_stats.remaining).toBe(300);
      expect((await poolOf(group.id)).credits_pool_used).toBe(OPENING + 300);
      const short = await t.post(
        '/api/admin/users',
        { ...newUserBody(), group_id: group.id, credits_quota: 1 },
        superToken,
      );
      expect(short.status).toBe(409);
      expect(short.body.error).toBe('POOL_SHORT_FOR_OPENING_CREDITS');
      // No credits asked for, none needed from the pool.
      const none = await createUserAsAdmin(t, superToken, { group_id: group.id, credits_quota: 0 });
      expect(await ledgerRows(t, none.id)).toEqual([]);
      await expectPoolConsistent(t, group.id);
    });

    it('mints nothing by moving users into a pooled group, one by one or in bulk', async () => {
      const group = await createGroupAsAdmin(t, superToken);
      await setPool(group.id, 500);
      const [a, b] = [await createUserAsAdmin(t, superToken), await createUserAsAdmin(t, superToken)];
      const moved = await t.put(`/api/admin/users/${a.id}`, { group_id: group.id }, superToken);
      expect(moved.status, moved.text).toBe(200);
      const bulk = await t.post(
        '/api/admin/users/bulk',
        { ids: [b.id], action: 'move', group_id: group.id },
        superToken,
      );
      expect(bulk.status, bulk.text).toBe(200);
      for (const u of [a, b]) {
        expect(await ledgerRows(t, u.id)).toHaveLength(1);
        expect((await t.userRow(u.id)).credits_quota).toBe(OPENING);
      }
      expect((await poolOf(group.id)).credits_pool_used).toBe(0);
      await expectPoolConsistent(t, group.id);
    });
  });

  describe('registration', () => {
    it('into a default group with a pool draws from the pool, and opens with none when it is short', async () => {
      const group = await createGroupAsAdmin(t, superToken);
      await setPool(group.id, OPENING + 10);
      await t.setSetting('user', { default_group_id: group.id });
      try {
        const { id } = await t.registerUser();
        expect((await t.userRow(id)).group_id).toBe(group.id);
        expect((await ledgerRows(t, id)).map((r) => [r.amount, r.description])).toEqual([
          [OPENING, 'server.ledger.openingFromPool'],
        ]);
        expect((await poolRows(group.id)).at(-1)).toMatchObject({ user_id: id, operator_id: null, amount: -OPENING });

        const s = unique();
        const body = {
          email: `r_${s}@example.com`,
          username: `r_${s}`,
          password: 'secret123',
          confirmPassword: 'secret123',
        };
        const poolBefore = await poolRows(group.id);
        const opened = await t.post('/api/auth/register', body, undefined, 'en-US');
        expect(opened.status, opened.text).toBeLessThan(300);
        const [short] = await usersNamed(body.username);
        expect(short).toBeDefined();
        const row = await t.userRow(short!.id);
        expect([row.group_id, row.credits_quota]).toEqual([group.id, 0]);
        expect(await ledgerRows(t, short!.id)).toEqual([]);
        expect(await poolRows(group.id)).toEqual(poolBefore);
        await expectPoolConsistent(t, group.id);
      } finally {
        await t.setSetting('user', {});
      }
    });

    it('into a default group without a pool keeps the site opening credits', async () => {
      const { id } = await t.registerUser();
      expect((await ledgerRows(t, id)).map((r) => [r.amount, r.description])).toEqual([
        [OPENING, 'server.ledger.registerGrant'],
      ]);
    });
  });
});
