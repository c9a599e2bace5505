import fs from 'node:fs';
import path from 'node:path';
import type { EraseUserResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin, createUserAsAdmin, expectEveryLedgerConsistent } from '../../../test/admin-helpers.js';
import { createChatApp } from '../../../test/chat-helpers.js';
import { uploadDocument, waitReady } from '../../../test/document-files.js';
import { type Stocked, stockedPerson } from '../../../test/personal-data-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

/** POST /admin/users/{id}/erase: the account anonymised, its content gone, its ledger's amounts kept. */
describe('erasure', () => {
  let t: TestApp;
  let root: string;
  let rootId: number;

  beforeAll(async () => {
    ({ t } = await createChatApp());
    const login = await t.loginAsAdmin();
    root = login.accessToken;
    rootId = login.user.id;
  });
  afterAll(async () => {
    await expectEveryLedgerConsistent(t);
    await t.close();
  });

  const erase = (id: number, body: unknown, token = root, lang?: string) =>
    t.post<EraseUserResult>(`/api/admin/users/${id}/erase`, body, token, lang);
  const storedFiles = async (userId: number) =>
    (await t.db.selectFrom('files').select('stored_name').where('user_id', '=', userId).execute()).map((f) =>
      path.join(t.config.dataDir, 'uploads', f.stored_name),
    );
  const ledgerOf = (userId: number) =>
    t.db
      .selectFrom('credit_transactions')
      .select(['id', 'amount', 'balance_after'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  const count = async (table: 'conversations' | 'share_links' | 'files' | 'knowledge_bases', userId: number) =>
    (await t.db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;

  /** A stocked person who also has a document of their own, unattached. */
  async function person(marker: string): Promise<Stocked & { documentId: string }> {
    const p = await stockedPerson(t, marker);
    const doc = await uploadDocument(t, p.token, `${marker}.txt`, Buffer.from(`notes of ${marker}`));
    expect(doc.status, doc.text).toBe(201);
    await waitReady(t, p.token, doc.body.data.id);
    return { ...p, documentId: doc.body.data.id };
  }

  it('anonymises the account, removes its content and files on disk, and keeps its ledger', async () => {
    const carol = await person('CAROLMARK');
    const dave = await person('DAVEMARK');
    const files = await storedFiles(carol.id);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) expect(fs.existsSync(f), f).toBe(true);
    const ledgerBefore = await ledgerOf(carol.id);
    const userBefore = await t.userRow(carol.id);

    const res = await erase(carol.id, { reason: 'Erasure request 7' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ id: carol.id, conversations: 1, files: files.length });

    // The content is gone, rows and bytes.
    for (const f of files) expect(fs.existsSync(f), f).toBe(false);
    for (const table of ['conversations', 'share_links', 'files', 'knowledge_bases'] as const) {
      expect(await count(table, carol.id), table).toBe(0);
    }
    const prompts = await t.db.selectFrom('prompt_templates').select('id').where('owner_id', '=', carol.id).execute();
    expect(prompts).toHaveLength(0);
    const messages = await t.db.selectFrom('messages').select('id').where('content', 'like', '%CAROLMARK%').execute();
    expect(messages).toHaveLength(0);

    // The account names nobody, cannot sign in, and its session ended.
    const after = await t.userRow(carol.id);
    expect(after).toMatchObject({
      username: `erased-${carol.id}`,
      email: `erased-${carol.id}@erased.invalid`,
      phone: null,
      avatar_url: null,
      status: 'inactive',
      role: 'user',
    });
    expect(after.deleted_at).not.toBeNull();
    expect(after.password_hash).not.toBe(userBefore.password_hash);
    expect((await t.get('/api/auth/me', carol.token)).status).toBe(401);
    expect((await t.post('/api/auth/login', { account: carol.email, password: carol.password })).status).toBe(401);

    // The ledger keeps every row and amount under the same id, and the balance still matches it.
    expect(await ledgerOf(carol.id)).toEqual(ledgerBefore);
    expect(after.credits_used).toBe(userBefore.credits_used);
    expect(await t.ledgerSum(carol.id)).toBe(after.credits_quota - after.credits_used);

    // Audited with the reason, and the audit row does not repeat the erased email.
    const audit = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'user.erase').execute();
    expect(audit.map((a) => a.target_id)).toContain(String(carol.id));
    const row = audit.find((a) => a.target_id === String(carol.id))!;
    expect(row.changes).toContain('Erasure request 7');
    expect(row.changes).not.toContain(carol.email);

    // Dave is untouched.
    expect(await count('conversations', dave.id)).toBe(1);
    for (const f of await storedFiles(dave.id)) expect(fs.existsSync(f), f).toBe(true);
    expect((await t.get('/api/auth/me', dave.token)).status).toBe(200);
  });

  it('needs a reason, translated when missing', async () => {
    const p = await t.signUp();
    for (const [body, lang, message] of [
      [{}, 'en-US', 'Please enter a reason'],
      [{ reason: ' ' }, 'zh-CN', '请输入原因'],
    ] as const) {
      const res = await t.post(`/api/admin/users/${p.session.user.id}/erase`, body, root, lang);
      expect(res.status, res.text).toBe(400);
      expect(JSON.stringify(res.body.data.errors)).toContain(message);
    }
    expect((await t.userRow(p.session.user.id)).status).toBe('active');
  });

  it('refuses a super administrator’s own account, group administrators and plain users', async () => {
    const self = await erase(rootId, { reason: 'me' });
    expect(self.status, self.text).toBe(400);
    expect(self.body.error).toBe('SELF_ACTION_NOT_ALLOWED');
    expect((await t.userRow(rootId)).status).toBe('active');

    const group = await createGroupAsAdmin(t, root);
    const member = await createUserAsAdmin(t, root, { group_id: group.id });
    const groupAdmin = await createUserAsAdmin(t, root, { group_id: group.id, role: 'admin' });
    const gaToken = (await t.tokensFor(groupAdmin.email, groupAdmin.password)).accessToken;
    expect((await erase(member.id, { reason: 'x' }, gaToken)).status).toBe(403);
    expect((await erase(groupAdmin.id, { reason: 'x' }, gaToken)).status).toBe(403);
    const plain = await t.signUp();
    expect((await erase(member.id, { reason: 'x' }, plain.session.accessToken)).status).toBe(403);
    expect((await t.userRow(member.id)).status).toBe('active');
    expect((await erase(999_999, { reason: 'x' })).status).toBe(404);
  });

  it('refuses a held account with 409, changing nothing; once released, it erases what the person deleted while held', async () => {
    const p = await stockedPerson(t, 'HELDMARK');
    const hold = (on: boolean) =>
      t.put(`/api/admin/users/${p.id}/legal-hold`, { on, reason: on ? 'Dispute 12' : '' }, root);
    expect((await hold(true)).status).toBe(200);
    // The person deletes their conversation while held: it is only hidden.
    expect((await t.request('DELETE', `/api/chat/conversations/${p.conversationId}`, { token: p.token })).status).toBe(
      200,
    );
    const files = await storedFiles(p.id);
    for (const [lang, message] of [
      ['en-US', 'legal hold'],
      ['zh-CN', '法律保全'],
    ] as const) {
      const res = await erase(p.id, { reason: 'request' }, root, lang);
      expect(res.status, res.text).toBe(409);
      expect(res.body.error).toBe('USER_ON_LEGAL_HOLD');
      expect(res.body.message).toContain(message);
    }
    expect(await t.userRow(p.id)).toMatchObject({ email: p.email, status: 'active' });
    expect(await count('conversations', p.id)).toBe(1);
    for (const f of files) expect(fs.existsSync(f), f).toBe(true);
    expect((await t.get('/api/auth/me', p.token)).status).toBe(200);

    expect((await hold(false)).status).toBe(200);
    const res = await erase(p.id, { reason: 'request' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.conversations).toBe(1);
    expect(await count('conversations', p.id)).toBe(0);
    for (const f of files) expect(fs.existsSync(f), f).toBe(false);
  });

  it('erases a retired account too, and a second erasure changes nothing more', async () => {
    const p = await stockedPerson(t, 'ERINMARK');
    expect((await t.request('DELETE', `/api/admin/users/${p.id}`, { token: root })).status).toBe(200);
    const first = await erase(p.id, { reason: 'after retirement' });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.conversations).toBe(1);
    const again = await erase(p.id, { reason: 'again' });
    expect(again.body.data).toEqual({ id: p.id, conversations: 0, files: 0 });
  });
});
