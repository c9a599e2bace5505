import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPoolConsistent } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { GroupsRepo } from './groups.repo.js';
import { type PoolChange, applyPoolChange } from './pool-writer.js';

/**
 * The pool's one writer on its own, without the group lock the services take: its one
 * conditional update alone keeps every pool within its rules and its ledger equal to
 * what is left, however many changes run at once (truly at once on PostgreSQL).
 */
describe('applyPoolChange', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const now = () => new Date().toISOString();
  const newGroup = async (total: number) => {
    const groups = new GroupsRepo(t.db);
    const id = await groups.insert({
      name: `pw_${unique()}`,
      description: '',
      color: '#1677ff',
      sort_order: 0,
      status: 'active',
      user_limit: null,
      site_name: null,
      site_logo: null,
      site_config_enabled: 0,
      created_at: now(),
      updated_at: now(),
    });
    if (total > 0) expect((await apply({ groupId: id, type: 'pool_set', amount: total, now: now() })).ok).toBe(true);
    return id;
  };
  const apply = (c: PoolChange) => t.db.transaction().execute((trx) => applyPoolChange(trx, c));
  const poolOf = (id: number) =>
    t.db
      .selectFrom('user_groups')
      .select(['credits_pool', 'credits_pool_used'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const ledgerCount = async (id: number) =>
    (await t.db.selectFrom('group_pool_transactions').select('id').where('group_id', '=', id).execute()).length;

  it('lets exactly as many concurrent distributions through as the pool covers', async () => {
    const id = await newGroup(100);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => apply({ groupId: id, type: 'group_distribute', amount: -15, now: now() })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(6);
    for (const r of results.filter((x) => !x.ok)) expect(r.state?.remaining).toBe(10);
    expect(await poolOf(id)).toEqual({ credits_pool: 100, credits_pool_used: 90 });
    // One row for the pool's size, one per distribution that went through, none for a refusal.
    expect(await ledgerCount(id)).toBe(1 + 6);
    await expectPoolConsistent(t, id);
  });

  it('keeps the ledger equal to what is left under concurrent sets, distributions and reclaims', async () => {
    const id = await newGroup(50);
    const changes: PoolChange[] = Array.from({ length: 60 }, (_, i) => {
      const at = now();
      if (i % 3 === 0) return { groupId: id, type: 'group_distribute', amount: -7, now: at };
      if (i % 3 === 1) return { groupId: id, type: 'group_reclaim', amount: 5, now: at };
      return { groupId: id, type: 'pool_set', amount: i % 2 === 0 ? -20 : 20, now: at };
    });
    const results = await Promise.all(changes.map(apply));
    // Every change either went through whole (its row tells what is left after it) or not at all.
    for (const r of results) if (r.ok) expect(r.row.pool_remaining_after).toBe(r.state.remaining);
    expect(await ledgerCount(id)).toBe(1 + results.filter((r) => r.ok).length);
    const g = await poolOf(id);
    const moved = results.reduce((sum, r, i) => sum + (r.ok ? changes[i]!.amount : 0), 50);
    expect(g.credits_pool - g.credits_pool_used).toBe(moved);
    await expectPoolConsistent(t, id);
  });

  it('refuses to overdraw, to reclaim more than was handed out, or to shrink below it', async () => {
    const id = await newGroup(40);
    expect(await apply({ groupId: id, type: 'group_distribute', amount: -41, now: now() })).toEqual({
      ok: false,
      state: { total: 40, used: 0, remaining: 40 },
    });
    expect((await apply({ groupId: id, type: 'group_distribute', amount: -30, now: now() })).ok).toBe(true);
    expect(await apply({ groupId: id, type: 'group_reclaim', amount: 31, now: now() })).toEqual({
      ok: false,
      state: { total: 40, used: 30, remaining: 10 },
    });
    expect(await apply({ groupId: id, type: 'pool_set', amount: -11, now: now() })).toEqual({
      ok: false,
      state: { total: 40, used: 30, remaining: 10 },
    });
    const exact = await apply({ groupId: id, type: 'pool_set', amount: -10, now: now() });
    expect(exact.ok && exact.row).toMatchObject({ transaction_type: 'pool_set', amount: -10, pool_remaining_after: 0 });
    expect((await apply({ groupId: id, type: 'group_reclaim', amount: 30, now: now() })).ok).toBe(true);
    expect(await poolOf(id)).toEqual({ credits_pool: 30, credits_pool_used: 0 });
    await expectPoolConsistent(t, id);
  });

  it('refuses a change of a group that does not exist, writing nothing', async () => {
    const before = await t.db.selectFrom('group_pool_transactions').select('id').execute();
    expect(await apply({ groupId: 999_999, type: 'pool_set', amount: 5, now: now() })).toEqual({
      ok: false,
      state: undefined,
    });
    expect(await t.db.selectFrom('group_pool_transactions').select('id').execute()).toHaveLength(before.length);
  });

  it('throws on a sign that contradicts the type, changing nothing', async () => {
    const id = await newGroup(10);
    await expect(apply({ groupId: id, type: 'group_distribute', amount: 5, now: now() })).rejects.toThrow();
    await expect(apply({ groupId: id, type: 'group_reclaim', amount: -5, now: now() })).rejects.toThrow();
    expect(await poolOf(id)).toEqual({ credits_pool: 10, credits_pool_used: 0 });
    await expectPoolConsistent(t, id);
  });
});
