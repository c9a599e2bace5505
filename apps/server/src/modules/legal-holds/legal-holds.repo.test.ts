import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { LegalHoldsRepo, heldUserIds, isUserHeld } from './legal-holds.repo.js';

/** Who is held: a user held themselves or through their group, and nobody else. */
describe('legal-hold lookups', () => {
  let t: TestApp;
  let repo: LegalHoldsRepo;
  beforeAll(async () => {
    t = await createTestApp();
    repo = new LegalHoldsRepo(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a user is held when they or their group are held', async () => {
    const admin = await t.loginAsAdmin();
    const group = await createGroupAsAdmin(t, admin.accessToken);
    const [direct, member, other] = [await t.registerUser(), await t.registerUser(), await t.registerUser()];
    await t.db.updateTable('users').set({ group_id: group.id }).where('id', '=', member.id).execute();
    const now = new Date().toISOString();
    expect(await isUserHeld(t.db, direct.id)).toBe(false);

    await repo.place(t.db, 'user', direct.id, 'dispute 1', admin.user.id, now);
    await repo.place(t.db, 'group', group.id, 'dispute 2', admin.user.id, now);
    expect(await isUserHeld(t.db, direct.id)).toBe(true);
    expect(await isUserHeld(t.db, member.id)).toBe(true);
    expect(await isUserHeld(t.db, other.id)).toBe(false);
    expect(await heldUserIds(t.db, [direct.id, member.id, other.id])).toEqual(new Set([direct.id, member.id]));

    expect(await repo.release(t.db, 'group', group.id)).toBe(true);
    expect(await repo.release(t.db, 'group', group.id)).toBe(false);
    expect(await isUserHeld(t.db, member.id)).toBe(false);
    expect(await heldUserIds(t.db, [])).toEqual(new Set());
  });
});
