import type { Group, SessionData } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createGroupAsAdmin,
  createUserAsAdmin,
  expectEveryLedgerConsistent,
  expectPoolConsistent,
  ledgerRows,
  poolTransfer,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { GroupsRepo } from './groups.repo.js';

describe('groups', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterEach(async () => {
    await expectEveryLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const groupUrl = (id: number, rest = '') => `/api/admin/user-groups/${id}${rest}`;
  const getGroup = async (id: number) => {
    const res = await t.get<Group>(groupUrl(id), token);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const member = (groupId: number) => createUserAsAdmin(t, token, { group_id: groupId });

  describe('CRUD', () => {
    it('requires a name and refuses a blank one', async () => {
      for (const body of [{}, { name: '' }, { name: '   ' }, { description: 'no name' }]) {
        const res = await t.post('/api/admin/user-groups', body, token);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
      }
    });

    it('creates a group with defaults, reads it back and lists it', async () => {
      const name = `Sales ${unique()}`;
      const res = await t.post<Group>('/api/admin/user-groups', { name, description: 'the sales team' }, token);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        name,
        description: 'the sales team',
        color: '#1677ff',
        status: 'active',
        user_count: 0,
        user_limit: null,
        credits_pool: 0,
        credits_pool_used: 0,
        credits_pool_remaining: 0,
        site_config_enabled: false,
        avg_credits_used: 0,
        avg_tokens_used: 0,
      });
      const id = res.body.data.id;
      expect(await getGroup(id)).toEqual(res.body.data);
      const list = await t.get<Group[]>('/api/admin/user-groups?limit=100', token);
      expect(list.status).toBe(200);
      expect(list.body.data.map((g) => g.id)).toContain(id);
      expect(list.body.data.map((g) => g.id)).toContain(1);
      expect(list.body.pagination?.total).toBe(list.body.data.length);
    });

    it('refuses a duplicate name (ignoring case) on create and on rename with 409 CONFLICT_GROUP_NAME', async () => {
      const a = await createGroupAsAdmin(t, token, { name: `Dup ${unique()}` });
      const b = await createGroupAsAdmin(t, token);
      const again = await t.post('/api/admin/user-groups', { name: a.name.toUpperCase() }, token);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('CONFLICT_GROUP_NAME');
      const rename = await t.put(groupUrl(b.id), { name: a.name }, token);
      expect(rename.status).toBe(409);
      expect(rename.body.error).toBe('CONFLICT_GROUP_NAME');
      expect((await getGroup(b.id)).name).toBe(b.name);
      // Keeping its own name is no conflict.
      expect((await t.put(groupUrl(a.id), { name: a.name, description: 'same' }, token)).status).toBe(200);
    });

    it('accepts only #rrggbb colours', async () => {
      for (const color of ['red', '#fff', '#12345g', '123456', '#1234567']) {
        const res = await t.post('/api/admin/user-groups', { name: `c ${unique()}`, color }, token);
        expect(res.status, color).toBe(400);
      }
      const ok = await createGroupAsAdmin(t, token, { color: '#12abEF' });
      expect(ok.color).toBe('#12abEF');
      expect((await t.put(groupUrl(ok.id), { color: 'blue' }, token)).status).toBe(400);
      expect((await getGroup(ok.id)).color).toBe('#12abEF');
    });

    it('edits name, description, colour, order and status', async () => {
      const g = await createGroupAsAdmin(t, token);
      const name = `Renamed ${unique()}`;
      const res = await t.put<Group>(
        groupUrl(g.id),
        { name, description: 'new', color: '#000000', sort_order: 7, status: 'inactive' },
        token,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name,
        description: 'new',
        color: '#000000',
        sort_order: 7,
        status: 'inactive',
      });
      expect(await getGroup(g.id)).toMatchObject({ name, sort_order: 7, status: 'inactive' });
    });

    it('answers 404 for a group that does not exist', async () => {
      expect((await t.get(groupUrl(999_999), token)).status).toBe(404);
      expect((await t.put(groupUrl(999_999), { description: 'x' }, token)).status).toBe(404);
      expect((await t.request('DELETE', groupUrl(999_999), { token })).status).toBe(404);
    });
  });

  it('counts live members and averages their credits and tokens used', async () => {
    const g = await createGroupAsAdmin(t, token);
    const [a, b, c] = [await member(g.id), await member(g.id), await member(g.id)];
    await t.db.updateTable('users').set({ credits_used: 10, token_used: 100 }).where('id', '=', a.id).execute();
    await t.db.updateTable('users').set({ credits_used: 21, token_used: 300 }).where('id', '=', b.id).execute();
    await t.db.updateTable('users').set({ credits_used: 500, token_used: 9000 }).where('id', '=', c.id).execute();
    // The ledger follows the balance the direct updates changed.
    for (const [id, used] of [
      [a.id, 10],
      [b.id, 21],
      [c.id, 500],
    ] as const) {
      await t.db
        .insertInto('credit_transactions')
        .values({
          user_id: id,
          transaction_type: 'chat_consume',
          amount: -used,
          balance_after: 1000 - used,
          description: '',
          created_at: new Date().toISOString(),
        })
        .execute();
    }
    expect(await getGroup(g.id)).toMatchObject({ user_count: 3, avg_credits_used: 177, avg_tokens_used: 3133.33 });
    // A retired member no longer counts.
    expect((await t.request('DELETE', `/api/admin/users/${c.id}`, { token })).status).toBe(200);
    expect(await getGroup(g.id)).toMatchObject({ user_count: 2, avg_credits_used: 15.5, avg_tokens_used: 200 });
  });

  describe('member limit', () => {
    it('refuses a new member of a full group with 409 GROUP_FULL and creates nothing', async () => {
      const g = await createGroupAsAdmin(t, token, { user_limit: 2 });
      await member(g.id);
      await member(g.id);
      const email = `full_${unique()}@example.com`;
      const res = await t.post(
        '/api/admin/users',
        { username: `f_${unique()}`, email, password: 'secret123', group_id: g.id },
        token,
      );
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('GROUP_FULL');
      expect(await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
      expect((await getGroup(g.id)).user_count).toBe(2);
    });

    it('refuses moving a user into a full group (edit and bulk move) and leaves them where they were', async () => {
      const full = await createGroupAsAdmin(t, token, { user_limit: 1 });
      const other = await createGroupAsAdmin(t, token);
      await member(full.id);
      const mover = await member(other.id);
      const edit = await t.put(`/api/admin/users/${mover.id}`, { group_id: full.id }, token);
      expect(edit.status).toBe(409);
      expect(edit.body.error).toBe('GROUP_FULL');
      const bulk = await t.post('/api/admin/users/bulk', { ids: [mover.id], action: 'move', group_id: full.id }, token);
      expect(bulk.status).toBe(409);
      expect(bulk.body.error).toBe('GROUP_FULL');
      expect((await t.userRow(mover.id)).group_id).toBe(other.id);
      expect((await getGroup(full.id)).user_count).toBe(1);
    });

    it('treats null as unlimited and refuses a limit below the current count with 409', async () => {
      const g = await createGroupAsAdmin(t, token, { user_limit: 2 });
      await member(g.id);
      await member(g.id);
      // Lifting the limit lets a third in.
      const lifted = await t.put<Group>(groupUrl(g.id, '/user-limit'), { user_limit: null }, token);
      expect(lifted.status).toBe(200);
      expect(lifted.body.data.user_limit).toBeNull();
      await member(g.id);
      expect((await getGroup(g.id)).user_count).toBe(3);

      for (const [url, body] of [
        [groupUrl(g.id, '/user-limit'), { user_limit: 2 }],
        [groupUrl(g.id), { user_limit: 1 }],
      ] as const) {
        const res = await t.put(url, body, token);
        expect(res.status, url).toBe(409);
        expect(res.body.error).toBe('GROUP_FULL');
      }
      expect((await getGroup(g.id)).user_limit).toBeNull();
      // Exactly the current count is fine; the group is then full.
      expect((await t.put(groupUrl(g.id, '/user-limit'), { user_limit: 3 }, token)).status).toBe(200);
      await expect(member(g.id)).rejects.toThrow(/409/);
      for (const bad of [0, -1, 1.5, 'ten']) {
        expect((await t.put(groupUrl(g.id, '/user-limit'), { user_limit: bad }, token)).status, String(bad)).toBe(400);
      }
    });

    it('lets exactly as many concurrent joins through as there are places', async () => {
      const g = await createGroupAsAdmin(t, token, { user_limit: 3 });
      const results = await Promise.all(
        Array.from({ length: 8 }, () => {
          const s = unique();
          return t.post(
            '/api/admin/users',
            { username: `c_${s}`, email: `c_${s}@example.com`, password: 'secret123', group_id: g.id },
            token,
          );
        }),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s === 409)).toHaveLength(5);
      const count = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('group_id', '=', g.id)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(3);
    });
  });

  describe('delete', () => {
    it('refuses a group with members (409 GROUP_HAS_USERS) and deletes it once they are retired', async () => {
      const g = await createGroupAsAdmin(t, token);
      const m = await member(g.id);
      const res = await t.request('DELETE', groupUrl(g.id), { token });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('GROUP_HAS_USERS');
      expect((await getGroup(g.id)).user_count).toBe(1);
      expect((await t.request('DELETE', `/api/admin/users/${m.id}`, { token })).status).toBe(200);
      const ok = await t.request<{ id: number }>('DELETE', groupUrl(g.id), { token });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({ id: g.id });
      expect((await t.get(groupUrl(g.id), token)).status).toBe(404);
    });

    it('deletes an empty group: gone from reads and lists', async () => {
      const g = await createGroupAsAdmin(t, token);
      expect((await t.request('DELETE', groupUrl(g.id), { token })).status).toBe(200);
      expect((await t.get(groupUrl(g.id), token)).status).toBe(404);
      const list = await t.get<Group[]>('/api/admin/user-groups?limit=100', token);
      expect(list.body.data.map((x) => x.id)).not.toContain(g.id);
      expect(
        await t.db.selectFrom('user_groups').select('id').where('id', '=', g.id).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('never deletes the default group 1, even when it is empty', async () => {
      const parking = await createGroupAsAdmin(t, token);
      const members = await t.db.selectFrom('users').select('id').where('group_id', '=', 1).execute();
      await t.db.updateTable('users').set({ group_id: parking.id }).where('group_id', '=', 1).execute();
      try {
        const res = await t.request('DELETE', groupUrl(1), { token });
        expect(res.status).toBe(409);
        expect(res.body.error).toBe('GROUP_IS_DEFAULT');
      } finally {
        if (members.length > 0) {
          await t.db
            .updateTable('users')
            .set({ group_id: 1 })
            .where(
              'id',
              'in',
              members.map((m) => m.id),
            )
            .execute();
        }
      }
      expect((await getGroup(1)).id).toBe(1);
    });
  });

  describe('credit pool', () => {
    /** A group whose members joined before it had a pool: their opening credits came from the site. */
    async function pooledGroup(pool: number, members = 1) {
      const g = await createGroupAsAdmin(t, token);
      const users = [];
      for (let i = 0; i < members; i += 1) users.push(await member(g.id));
      const res = await t.put<Group>(groupUrl(g.id, '/credits-pool'), { credits_pool: pool }, token);
      expect(res.status).toBe(200);
      return { group: res.body.data, users };
    }

    it('sets the pool size and records it in the pool ledger', async () => {
      const { group } = await pooledGroup(100, 0);
      expect(group).toMatchObject({ credits_pool: 100, credits_pool_used: 0, credits_pool_remaining: 100 });
      const rows = await t.db
        .selectFrom('group_pool_transactions')
        .selectAll()
        .where('group_id', '=', group.id)
        .execute();
      expect(rows).toMatchObject([{ transaction_type: 'pool_set', amount: 100, pool_remaining_after: 100 }]);
      await expectPoolConsistent(t, group.id);
    });

    it('distributes to a member: group_distribute on their ledger, the pool remainder drops', async () => {
      const { group, users } = await pooledGroup(100);
      const u = users[0]!;
      const res = await poolTransfer(t, token, group.id, { user_id: u.id, amount: 30, reason: 'bonus' });
      expect(res.status).toBe(200);
      expect(res.body.data.group).toMatchObject({
        credits_pool: 100,
        credits_pool_used: 30,
        credits_pool_remaining: 70,
      });
      expect(res.body.data.user.credits_quota).toBe(u.credits_quota + 30);
      expect(res.body.data.transaction).toMatchObject({ amount: 30, transaction_type: 'group_distribute' });
      const last = (await ledgerRows(t, u.id)).at(-1);
      expect(last).toMatchObject({
        transaction_type: 'group_distribute',
        amount: 30,
        balance_after: 1030,
        reason: 'bonus',
      });
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(70);
      const pool = await t.db
        .selectFrom('group_pool_transactions')
        .selectAll()
        .where('group_id', '=', group.id)
        .execute();
      expect(pool.at(-1)).toMatchObject({
        transaction_type: 'group_distribute',
        amount: -30,
        pool_remaining_after: 70,
        user_id: u.id,
      });
      await expectPoolConsistent(t, group.id);
    });

    it('reclaims at most what a member received from the pool and still holds; nothing changes otherwise', async () => {
      const { group, users } = await pooledGroup(100, 2);
      const [u, fresh] = [users[0]!, users[1]!];
      expect((await poolTransfer(t, token, group.id, { user_id: u.id, amount: 40 })).status).toBe(200);
      const back = await poolTransfer(t, token, group.id, { user_id: u.id, amount: 10, operation: 'reclaim' });
      expect(back.status).toBe(200);
      expect(back.body.data.group.credits_pool_remaining).toBe(70);
      expect((await ledgerRows(t, u.id)).at(-1)).toMatchObject({ transaction_type: 'group_reclaim', amount: -10 });

      // 30 came from the pool and are still out: 31 would pull the member's own credits in.
      const ledgerBefore = (await ledgerRows(t, u.id)).length;
      const beyondReceived = await poolTransfer(t, token, group.id, {
        user_id: u.id,
        amount: 31,
        operation: 'reclaim',
      });
      expect(beyondReceived.status).toBe(409);
      expect(beyondReceived.body.error).toBe('RECLAIM_EXCEEDS_RECEIVED');
      expect(await ledgerRows(t, u.id)).toHaveLength(ledgerBefore);
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(70);

      // A member who got nothing from the pool gives nothing back: opening credits never mint pool credits.
      const minted = await poolTransfer(t, token, group.id, { user_id: fresh.id, amount: 1, operation: 'reclaim' });
      expect(minted.status).toBe(409);
      expect(minted.body.error).toBe('RECLAIM_EXCEEDS_RECEIVED');

      // Received 30, but holds only 5 after an administrator's set: the balance caps the reclaim.
      const set = await t.request('POST', `/api/admin/users/${u.id}/credits`, {
        token,
        body: { operation: 'set', amount: 5, reason: 'spent elsewhere' },
      });
      expect(set.status).toBe(200);
      const overBalance = await poolTransfer(t, token, group.id, { user_id: u.id, amount: 6, operation: 'reclaim' });
      expect(overBalance.status).toBe(402);
      expect(overBalance.body.error).toBe('INSUFFICIENT_CREDITS');
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(70);
      const rest = await poolTransfer(t, token, group.id, { user_id: u.id, amount: 5, operation: 'reclaim' });
      expect(rest.status).toBe(200);
      expect(rest.body.data.group.credits_pool_remaining).toBe(75);
      await expectPoolConsistent(t, group.id);
    });

    it('refuses to distribute beyond the pool with 409 POOL_INSUFFICIENT', async () => {
      const { group, users } = await pooledGroup(20);
      const u = users[0]!;
      const res = await poolTransfer(t, token, group.id, { user_id: u.id, amount: 21 });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('POOL_INSUFFICIENT');
      expect((await ledgerRows(t, u.id)).map((r) => r.transaction_type)).toEqual(['system_reward']);
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(20);
      expect((await poolTransfer(t, token, group.id, { user_id: u.id, amount: 20 })).status).toBe(200);
      expect((await poolTransfer(t, token, group.id, { user_id: u.id, amount: 1 })).status).toBe(409);
      await expectPoolConsistent(t, group.id);
    });

    it('refuses a user outside the group with 400 and an unknown user with 404', async () => {
      const { group } = await pooledGroup(50, 0);
      const outsider = await member(1);
      const res = await poolTransfer(t, token, group.id, { user_id: outsider.id, amount: 5 });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      expect((await poolTransfer(t, token, group.id, { user_id: 999_999, amount: 5 })).status).toBe(404);
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(50);
      expect((await ledgerRows(t, outsider.id)).map((r) => r.transaction_type)).toEqual(['system_reward']);
    });

    it('validates the amount, the reason and the operation', async () => {
      const { group, users } = await pooledGroup(50);
      const u = users[0]!;
      for (const body of [
        { user_id: u.id, amount: 0, reason: 'x' },
        { user_id: u.id, amount: -5, reason: 'x' },
        { user_id: u.id, amount: 1.5, reason: 'x' },
        { user_id: u.id, amount: 5, reason: '' },
        { user_id: u.id, amount: 5 },
        { user_id: u.id, amount: 5, reason: 'x', operation: 'steal' },
      ]) {
        const res = await t.post(groupUrl(group.id, '/distribute-credits'), body, token);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(50);
    });

    it('never sets the pool below what is already distributed', async () => {
      const { group, users } = await pooledGroup(100);
      expect((await poolTransfer(t, token, group.id, { user_id: users[0]!.id, amount: 60 })).status).toBe(200);
      const res = await t.put(groupUrl(group.id, '/credits-pool'), { credits_pool: 59 }, token);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('POOL_INSUFFICIENT');
      expect(await getGroup(group.id)).toMatchObject({ credits_pool: 100, credits_pool_used: 60 });
      const exact = await t.put<Group>(groupUrl(group.id, '/credits-pool'), { credits_pool: 60 }, token);
      expect(exact.status).toBe(200);
      expect(exact.body.data.credits_pool_remaining).toBe(0);
      await expectPoolConsistent(t, group.id);
    });

    it('lets exactly 30 of 50 concurrent distributes of 1 through a pool of 30, every ledger consistent', async () => {
      const { group, users } = await pooledGroup(30, 5);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          poolTransfer(t, token, group.id, { user_id: users[i % 5]!.id, amount: 1 }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(30);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused).toHaveLength(20);
      for (const r of refused) expect(r.body.error).toBe('POOL_INSUFFICIENT');

      const g = await t.db.selectFrom('user_groups').selectAll().where('id', '=', group.id).executeTakeFirstOrThrow();
      expect(g).toMatchObject({ credits_pool: 30, credits_pool_used: 30 });
      expect(await new GroupsRepo(t.db).poolLedgerSum(group.id)).toBe(g.credits_pool - g.credits_pool_used);
      let handedOut = 0;
      for (const u of users) {
        const row = await t.userRow(u.id);
        expect(await t.ledgerSum(u.id)).toBe(row.credits_quota - row.credits_used);
        handedOut += row.credits_quota - u.credits_quota;
      }
      expect(handedOut).toBe(30);
    });

    it('keeps both ledgers consistent under concurrent distributes and reclaims', async () => {
      const { group, users } = await pooledGroup(100, 4);
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          poolTransfer(t, token, group.id, {
            user_id: users[i % 4]!.id,
            amount: i % 2 === 0 ? 7 : 3,
            operation: i % 2 === 0 ? 'distribute' : 'reclaim',
          }),
        ),
      );
      for (const r of results) expect([200, 409]).toContain(r.status);
      await expectPoolConsistent(t, group.id);
      const g = await t.db.selectFrom('user_groups').selectAll().where('id', '=', group.id).executeTakeFirstOrThrow();
      let net = 0;
      for (const u of users) {
        const row = await t.userRow(u.id);
        expect(await t.ledgerSum(u.id)).toBe(row.credits_quota - row.credits_used);
        net += row.credits_quota - u.credits_quota;
      }
      // What members gained is exactly what the pool lost.
      expect(100 - (g.credits_pool - g.credits_pool_used)).toBe(net);
    });

    it('applies a distribute with an Idempotency-Key once, and refuses the key for another body', async () => {
      const { group, users } = await pooledGroup(100);
      const u = users[0]!;
      const key = `dist-${unique()}`;
      const first = await poolTransfer(t, token, group.id, { user_id: u.id, amount: 10 }, { 'idempotency-key': key });
      expect(first.status).toBe(200);
      const repeats = await Promise.all(
        Array.from({ length: 5 }, () =>
          poolTransfer(t, token, group.id, { user_id: u.id, amount: 10 }, { 'idempotency-key': key }),
        ),
      );
      for (const r of repeats) {
        expect(r.status).toBe(200);
        expect(r.body.data.transaction.id).toBe(first.body.data.transaction.id);
      }
      expect((await ledgerRows(t, u.id)).filter((r) => r.transaction_type === 'group_distribute')).toHaveLength(1);
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(90);
      const other = await poolTransfer(t, token, group.id, { user_id: u.id, amount: 11 }, { 'idempotency-key': key });
      expect(other.status).toBe(409);
      expect(other.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(90);
      await expectPoolConsistent(t, group.id);
    });

    it('applies concurrent first requests with one Idempotency-Key once', async () => {
      const { group, users } = await pooledGroup(100);
      const u = users[0]!;
      const key = `race-${unique()}`;
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          poolTransfer(t, token, group.id, { user_id: u.id, amount: 10 }, { 'idempotency-key': key }),
        ),
      );
      for (const r of results) expect(r.status).toBe(200);
      expect(new Set(results.map((r) => r.body.data.transaction.id)).size).toBe(1);
      expect((await getGroup(group.id)).credits_pool_remaining).toBe(90);
      expect((await ledgerRows(t, u.id)).filter((r) => r.transaction_type === 'group_distribute')).toHaveLength(1);
    });
  });

  describe('site config', () => {
    it('replaces the site name and logo for members when enabled, and only for them', async () => {
      const g = await createGroupAsAdmin(t, token);
      const m = await member(g.id);
      const outsider = await member(1);
      const mToken = (await t.tokensFor(m.email, m.password)).accessToken;
      const oToken = (await t.tokensFor(outsider.email, outsider.password)).accessToken;
      const me = async (tk: string) => (await t.get<SessionData>('/api/auth/me', tk)).body.data.siteConfig;
      const before = await me(mToken);
      expect(before.is_group_config).toBe(false);

      const logo = 'https://cdn.example.com/team.png';
      const res = await t.put<Group>(
        groupUrl(g.id, '/site-config'),
        { site_name: 'Team Portal', site_logo: logo, enabled: true },
        token,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ site_name: 'Team Portal', site_logo: logo, site_config_enabled: true });
      expect(await me(mToken)).toMatchObject({ name: 'Team Portal', logo, is_group_config: true });
      expect(await me(oToken)).toEqual(before);

      // Stored but switched off: members see the site's own identity again.
      const off = await t.put<Group>(
        groupUrl(g.id, '/site-config'),
        { site_name: 'Team Portal', site_logo: logo, enabled: false },
        token,
      );
      expect(off.body.data.site_config_enabled).toBe(false);
      expect(await me(mToken)).toEqual(before);
    });
  });

  describe('edit never drops a known field', () => {
    const poolRows = (groupId: number) =>
      t.db.selectFrom('group_pool_transactions').selectAll().where('group_id', '=', groupId).execute();

    it('refuses a changed credits_pool with 400 naming the pool call, and accepts the stored one', async () => {
      const g = await createGroupAsAdmin(t, token);
      expect((await t.put(groupUrl(g.id, '/credits-pool'), { credits_pool: 40 }, token)).status).toBe(200);
      const rowsBefore = (await poolRows(g.id)).length;
      for (const lang of ['en-US', 'zh-CN']) {
        const res = await t.put(groupUrl(g.id), { credits_pool: 900, description: 'changed' }, token, lang);
        expect(res.status, lang).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
        expect(res.body.data?.errors?.join()).toContain('/admin/user-groups/{id}/credits-pool');
      }
      const after = await getGroup(g.id);
      expect(after).toMatchObject({ credits_pool: 40, credits_pool_remaining: 40, description: g.description });
      expect(await poolRows(g.id)).toHaveLength(rowsBefore);
      await expectPoolConsistent(t, g.id);

      // A client echoing the whole group it read: the pool is unchanged, the rest applies.
      const same = await t.put<Group>(groupUrl(g.id), { ...after, description: 'echoed' }, token);
      expect(same.status).toBe(200);
      expect(same.body.data).toMatchObject({ description: 'echoed', credits_pool: 40 });
      expect(await poolRows(g.id)).toHaveLength(rowsBefore);
    });

    it('applies site_name, site_logo and site_config_enabled with the site-config rules', async () => {
      const g = await createGroupAsAdmin(t, token);
      const m = await member(g.id);
      const mToken = (await t.tokensFor(m.email, m.password)).accessToken;
      const me = async () => (await t.get<SessionData>('/api/auth/me', mToken)).body.data.siteConfig;
      const logo = 'https://cdn.example.com/edit.png';
      const res = await t.put<Group>(
        groupUrl(g.id),
        { site_name: '  Edit Portal ', site_logo: logo, site_config_enabled: true },
        token,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ site_name: 'Edit Portal', site_logo: logo, site_config_enabled: true });
      expect(await getGroup(g.id)).toMatchObject({ site_name: 'Edit Portal', site_config_enabled: true });
      expect(await me()).toMatchObject({ name: 'Edit Portal', logo, is_group_config: true });

      // Blank means none, as on the site-config call; switching off restores the site's identity.
      const off = await t.put<Group>(groupUrl(g.id), { site_logo: '', site_config_enabled: false }, token);
      expect(off.body.data).toMatchObject({ site_name: 'Edit Portal', site_logo: null, site_config_enabled: false });
      expect((await me()).is_group_config).toBe(false);

      for (const body of [{ site_name: 'x'.repeat(101) }, { site_config_enabled: 'yes' }, { site_logo: 7 }]) {
        const bad = await t.put(groupUrl(g.id), body, token);
        expect(bad.status, JSON.stringify(body)).toBe(400);
        expect(bad.body.error).toBe('VALIDATION_FAILED');
      }
      expect((await getGroup(g.id)).site_name).toBe('Edit Portal');
    });

    it('still strips read-only figures and fields it does not know', async () => {
      const g = await createGroupAsAdmin(t, token);
      const res = await t.put<Group>(
        groupUrl(g.id),
        { description: 'ok', user_count: 99, credits_pool_used: 5, favourite_colour: 'teal' },
        token,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ description: 'ok', user_count: 0, credits_pool_used: 0 });
    });
  });
});
