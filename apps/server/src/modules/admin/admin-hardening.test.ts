import type { AdminUser, BulkUsersResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adjustCredits,
  adminSession,
  createGroupAsAdmin,
  createUserAsAdmin,
  expectEveryLedgerConsistent,
  expectPoolConsistent,
  poolTransfer,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

/*
 * Abuse and race cases of the admin side: rights that come from a granted permission,
 * answers that could reveal accounts, balances at the column limit, and concurrent
 * writes that take the same rows in different orders.
 */
describe('admin hardening', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(() => t.close());

  /** A plain user of the group holding extra permissions granted by the super administrator. */
  async function grantedUser(groupId: number, permissions: string[]) {
    const user = await createUserAsAdmin(t, token, { group_id: groupId });
    const res = await t.put(`/api/admin/users/${user.id}`, { extra_permissions: permissions }, token);
    expect(res.status).toBe(200);
    return { user, token: (await t.tokensFor(user.email, user.password)).accessToken };
  }

  it('never lets a group-scoped right act on its holder: no pool credits to oneself, no self-edit', async () => {
    const group = await createGroupAsAdmin(t, token);
    // Members first: once the group has a pool, their opening credits would come out of it.
    const self = await grantedUser(group.id, ['credits.manage.group', 'user.manage.group']);
    const other = await createUserAsAdmin(t, token, { group_id: group.id });
    expect((await t.put(`/api/admin/user-groups/${group.id}/credits-pool`, { credits_pool: 500 }, token)).status).toBe(
      200,
    );

    const toSelf = await poolTransfer(t, self.token, group.id, { user_id: self.user.id, amount: 500 });
    expect([403, 404]).toContain(toSelf.status);
    const edit = await t.put(`/api/admin/users/${self.user.id}`, { token_quota: 1_000_000 }, self.token);
    expect([403, 404]).toContain(edit.status);
    expect((await t.userRow(self.user.id)).credits_quota).toBe(self.user.credits_quota);
    expect((await t.userRow(self.user.id)).token_quota).toBe(self.user.token_quota);

    // The same rights still work on another plain member.
    expect((await poolTransfer(t, self.token, group.id, { user_id: other.id, amount: 100 })).status).toBe(200);
    await expectPoolConsistent(t, group.id);
  });

  it('answers an action the actor has no right to the same way whether the account exists or not', async () => {
    const [g1, g2] = [await createGroupAsAdmin(t, token), await createGroupAsAdmin(t, token)];
    const groupAdmin = await adminSession(t, token, { group_id: g1.id });
    const elsewhere = await createUserAsAdmin(t, token, { group_id: g2.id });
    const ownMember = await createUserAsAdmin(t, token, { group_id: g1.id });
    for (const id of [elsewhere.id, ownMember.id, 999_999]) {
      const credits = await adjustCredits(t, groupAdmin.token, id, { operation: 'add', amount: 1, reason: 'probe' });
      expect(credits.status, `credits on ${id}`).toBe(403);
      const move = await t.post(
        '/api/admin/users/bulk',
        { ids: [id], action: 'move', group_id: g1.id },
        groupAdmin.token,
      );
      expect(move.status, `move of ${id}`).toBe(403);
    }
  });

  it('refuses a grant past the largest balance a column holds, with a 400 and nothing written', async () => {
    const user = await createUserAsAdmin(t, token);
    for (let i = 0; i < 2; i += 1) {
      expect(
        (await adjustCredits(t, token, user.id, { operation: 'add', amount: 1_000_000_000, reason: 'big' })).status,
      ).toBe(200);
    }
    const before = await t.userRow(user.id);
    const third = await adjustCredits(
      t,
      token,
      user.id,
      { operation: 'add', amount: 1_000_000_000, reason: 'big' },
      { lang: 'en-US' },
    );
    expect(third.status).toBe(400);
    expect(third.body.error).toBe('VALIDATION_FAILED');
    expect(third.body.message).toMatch(/more credits than allowed/);
    expect(await t.userRow(user.id)).toMatchObject({ credits_quota: before.credits_quota });
    expect(await t.ledgerSum(user.id)).toBe(before.credits_quota - before.credits_used);
  });

  it('runs group edits and bulk moves over the same users and groups side by side without failing', async () => {
    const [g1, g2] = [await createGroupAsAdmin(t, token), await createGroupAsAdmin(t, token)];
    const users: AdminUser[] = [];
    for (let i = 0; i < 4; i += 1) users.push(await createUserAsAdmin(t, token, { group_id: g1.id }));
    const ids = users.map((u) => u.id);
    const requests = [];
    for (let round = 0; round < 6; round += 1) {
      const target = round % 2 === 0 ? g2.id : g1.id;
      requests.push(
        t.post<BulkUsersResult>(
          '/api/admin/users/bulk',
          { ids: [...ids].reverse(), action: 'move', group_id: target },
          token,
        ),
      );
      for (const id of ids)
        requests.push(t.put(`/api/admin/users/${id}`, { group_id: round % 2 === 0 ? g1.id : g2.id }, token));
    }
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const verify = await t.get<{ valid: boolean }>('/api/admin/audit-logs/verify', token);
    expect(verify.body.data.valid).toBe(true);
    await expectEveryLedgerConsistent(t);
  });
});
