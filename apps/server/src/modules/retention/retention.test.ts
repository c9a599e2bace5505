import type { Conversation, RetentionPolicy, RetentionRun, RetentionRunResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, auditHeadSeq, auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { createChatApp, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import {
  age,
  conversationExists,
  conversationWithImage,
  fileExists,
  moneyTotals,
  tableCounts,
} from '../../../test/retention-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

/** Retention: exactly the expired, unpinned, unheld conversations go, with their files; a dry run only counts. */
describe('retention', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  const user = async (groupId?: number) => {
    const { session } = await t.signUp();
    if (groupId !== undefined)
      await t.db.updateTable('users').set({ group_id: groupId }).where('id', '=', session.user.id).execute();
    return { token: session.accessToken, id: session.user.id };
  };
  const run = (dryRun: boolean, token = admin) =>
    t.post<RetentionRunResult>('/api/admin/retention/run', { dry_run: dryRun }, token);

  it('deletes the old, unpinned, unheld conversations and their files; a dry run counts the same and changes nothing', async () => {
    const settings = await t.put('/api/admin/settings', { retention: { days: 30 } }, admin);
    expect(settings.status, settings.text).toBe(200);
    const longGroup = await createGroupAsAdmin(t, admin, { retention_days: 100 });
    const shortGroup = await createGroupAsAdmin(t, admin);
    const set = await t.put(`/api/admin/user-groups/${shortGroup.id}`, { retention_days: 10 }, admin);
    expect(set.status, set.text).toBe(200);

    const [plain, held, longMember, shortMember] = [
      await user(),
      await user(),
      await user(longGroup.id),
      await user(shortGroup.id),
    ];
    const old = await conversationWithImage(t, plain.token);
    const recent = await conversationWithImage(t, plain.token);
    const pinned = await conversationWithImage(t, plain.token, { is_pinned: true });
    const heldOld = await conversationWithImage(t, held.token);
    const keptByGroup = await conversationWithImage(t, longMember.token);
    const expiredByGroup = await conversationWithImage(t, shortMember.token);
    await age(t, old.conv.id, 31);
    await age(t, recent.conv.id, 29);
    await age(t, pinned.conv.id, 400);
    await age(t, heldOld.conv.id, 400);
    await age(t, keptByGroup.conv.id, 60);
    await age(t, expiredByGroup.conv.id, 11);
    const hold = await t.put(`/api/admin/users/${held.id}/legal-hold`, { on: true, reason: 'litigation' }, admin);
    expect(hold.status, hold.text).toBe(200);

    const money = await moneyTotals(t);
    const before = await tableCounts(t);
    const dry = await run(true);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data).toEqual({ conversations: 2, files: 2 });
    expect(await tableCounts(t)).toEqual(before);
    expect(await fileExists(t, old)).toEqual({ row: true, disk: true });

    const real = await run(false);
    expect(real.body.data).toEqual(dry.body.data);
    for (const gone of [old, expiredByGroup]) {
      expect(await conversationExists(t, gone.conv.id)).toBe(false);
      expect(await fileExists(t, gone)).toEqual({ row: false, disk: false });
    }
    for (const kept of [recent, pinned, heldOld, keptByGroup]) {
      expect(await conversationExists(t, kept.conv.id)).toBe(true);
      expect(await fileExists(t, kept)).toEqual({ row: true, disk: true });
    }
    expect((await tableCounts(t)).conversations).toBe(before.conversations - 2);
    // Balances, ledger rows and usage statistics are untouched.
    expect(await moneyTotals(t)).toEqual(money);
    await expectLedgerConsistent(t);

    const runs = await t.get<RetentionRun[]>('/api/admin/retention/runs', admin);
    expect(runs.body.data.slice(0, 2).map((r) => [r.dry_run, r.status, r.conversations, r.files])).toEqual([
      [false, 'done', 2, 2],
      [true, 'done', 2, 2],
    ]);
    expect(runs.body.data[0]?.started_by_name).toBeTruthy();
    expect(await run(false).then((r) => r.body.data)).toEqual({ conversations: 0, files: 0 });
  });

  it('tells each user the days that apply to them: their group’s, else the site’s, none when kept forever', async () => {
    await t.setSetting('retention', { days: 90 });
    const group = await createGroupAsAdmin(t, admin, { retention_days: 7 });
    const [plain, member] = [await user(), await user(group.id)];
    const policy = async (token: string) => (await t.get<RetentionPolicy>('/api/chat/retention', token)).body.data;
    expect(await policy(plain.token)).toEqual({ days: 90 });
    expect(await policy(member.token)).toEqual({ days: 7 });
    await t.setSetting('retention', { days: null });
    expect(await policy(plain.token)).toEqual({ days: null });
    expect((await t.put('/api/admin/settings', { retention: { days: 0 } }, admin)).status).toBe(400);
    expect((await t.put(`/api/admin/user-groups/${group.id}`, { retention_days: 1.5 }, admin)).status).toBe(400);
  });

  it('a held user’s deletion hides instead; a hold on their group counts; releasing lets retention finish it', async () => {
    await t.setSetting('retention', { days: null });
    const group = await createGroupAsAdmin(t, admin);
    const [held, member] = [await user(), await user(group.id)];
    expect((await t.put(`/api/admin/users/${held.id}/legal-hold`, { on: true, reason: 'case 7' }, admin)).status).toBe(
      200,
    );
    expect(
      (await t.put(`/api/admin/user-groups/${group.id}/legal-hold`, { on: true, reason: 'audit' }, admin)).status,
    ).toBe(200);
    for (const u of [held, member]) {
      const c = await conversationWithImage(t, u.token);
      const messages = await t.db
        .selectFrom('messages')
        .select('id')
        .where('conversation_id', '=', c.conv.id)
        .execute();
      const delMessage = await t.request('DELETE', `/api/chat/conversations/${c.conv.id}/messages/${messages[1]!.id}`, {
        token: u.token,
      });
      expect(delMessage.status).toBe(409);
      expect(delMessage.text).toContain('CONTENT_ON_HOLD');
      const del = await t.request('DELETE', `/api/chat/conversations/${c.conv.id}`, { token: u.token });
      expect(del.status, del.text).toBe(200);
      // Gone for the user: not listed, not readable, not found by search.
      const list = await t.get<Conversation[]>('/api/chat/conversations', u.token);
      expect(list.body.data.map((x) => x.id)).not.toContain(c.conv.id);
      expect((await t.get(`/api/chat/conversations/${c.conv.id}`, u.token)).status).toBe(404);
      const found = await t.get<{ conversation_id: string }[]>('/api/chat/search?q=look', u.token);
      expect(JSON.stringify(found.body.data)).not.toContain(c.conv.id);
      // Kept whole in the database, files too; retention leaves it while the hold lasts.
      expect(await conversationExists(t, c.conv.id)).toBe(true);
      expect(await fileExists(t, c)).toEqual({ row: true, disk: true });
      expect((await run(false)).status).toBe(200);
      expect(await conversationExists(t, c.conv.id)).toBe(true);
      const hidden = await t.db
        .selectFrom('conversations')
        .select('hidden_at')
        .where('id', '=', c.conv.id)
        .executeTakeFirst();
      expect(hidden?.hidden_at).toBeTruthy();
      if (u === member) {
        await t.put(`/api/admin/user-groups/${group.id}/legal-hold`, { on: false }, admin);
        // Released: the next run completes the user's own deletion.
        expect((await run(false)).body.data).toEqual({ conversations: 1, files: 1 });
        expect(await fileExists(t, c)).toEqual({ row: false, disk: false });
      }
    }
  });

  it('only super administrators hold or run: a reason is required, every change is audited', async () => {
    const target = await user();
    const groupAdmin = await adminSession(t, admin);
    const manager = await adminSession(t, admin, { extra_permissions: ['user.manage', 'settings.manage'] });
    for (const token of [groupAdmin.token, manager.token, target.token]) {
      expect((await t.put(`/api/admin/users/${target.id}/legal-hold`, { on: true, reason: 'x' }, token)).status).toBe(
        403,
      );
      expect((await t.get('/api/admin/legal-holds', token)).status).toBe(403);
      expect((await run(true, token)).status).toBe(403);
      expect((await t.get('/api/admin/retention/runs', token)).status).toBe(403);
    }
    const noReason = await t.put(`/api/admin/users/${target.id}/legal-hold`, { on: true }, admin, 'zh-CN');
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('法律保全');
    expect((await t.put('/api/admin/users/999999/legal-hold', { on: true, reason: 'x' }, admin)).status).toBe(404);

    const seq = await auditHeadSeq(t);
    await t.put(`/api/admin/users/${target.id}/legal-hold`, { on: true, reason: 'regulator request' }, admin);
    const listed = await t.get<{ subject_id: number; subject_type: string; reason: string }[]>(
      '/api/admin/legal-holds',
      admin,
    );
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ subject_type: 'user', subject_id: target.id, reason: 'regulator request' }),
    );
    await t.put(`/api/admin/users/${target.id}/legal-hold`, { on: false }, admin);
    const rows = await auditRowsAfter(t, seq);
    expect(rows.map((r) => [r.action, r.target_type, String(r.target_id)])).toEqual([
      ['legal_hold.place', 'user', String(target.id)],
      ['legal_hold.release', 'user', String(target.id)],
    ]);
    expect(JSON.stringify(rows[0]?.changes)).toContain('regulator request');
  });
});
