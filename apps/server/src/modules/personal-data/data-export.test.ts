import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { createChatApp } from '../../../test/chat-helpers.js';
import { type Stocked, allText, download, stockedPerson } from '../../../test/personal-data-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

interface ExportedMessage {
  id: string;
  parent_id: string | null;
  role: string;
  content: string;
  files: { id: string; path: string | null }[];
}

/** GET /auth/export and GET /admin/users/{id}/export: everything of one person, nothing of anyone else. */
describe('data export', () => {
  let t: TestApp;
  let root: string;
  let alice: Stocked;
  let bob: Stocked;

  beforeAll(async () => {
    ({ t } = await createChatApp());
    root = (await t.loginAsAdmin()).accessToken;
    alice = await stockedPerson(t, 'ALICEMARK');
    bob = await stockedPerson(t, 'BOBMARK');
  });
  afterAll(async () => {
    await t.close();
  });

  function expectAlicesArchive(entries: Record<string, Uint8Array>, text: (name: string) => string) {
    const names = Object.keys(entries);
    expect(names).toEqual(
      expect.arrayContaining([
        'profile.json',
        `conversations/${alice.conversationId}.json`,
        `conversations/${alice.conversationId}.md`,
        'ledger.csv',
        'share-links.json',
        'prompt-templates.json',
        'knowledge-bases.json',
      ]),
    );
    const profile = JSON.parse(text('profile.json')) as { user: Record<string, unknown> };
    expect(profile.user).toMatchObject({ id: alice.id, email: alice.email });
    expect(profile.user).not.toHaveProperty('password_hash');
    expect(text('profile.json')).not.toContain('$argon2');

    const conversation = JSON.parse(text(`conversations/${alice.conversationId}.json`)) as {
      title: string;
      draft: { content: string };
      messages: ExportedMessage[];
    };
    expect(conversation.title).toBe('About ALICEMARK');
    expect(conversation.draft.content).toBe('draft ALICEMARK');
    // The question and both versions of its answer, each answer under the question.
    const [question, ...answers] = conversation.messages;
    expect(question).toMatchObject({ role: 'user', content: 'question ALICEMARK', parent_id: null });
    expect(answers).toHaveLength(2);
    for (const a of answers) expect(a).toMatchObject({ role: 'assistant', parent_id: question!.id });
    const imageEntry = question!.files[0]!.path!;
    expect(question!.files[0]!.id).toBe(alice.image.id);
    expect(Buffer.from(entries[imageEntry]!)).toEqual(alice.imageBytes);

    const markdown = text(`conversations/${alice.conversationId}.md`);
    expect(markdown).toContain('# About ALICEMARK');
    expect(markdown).toContain('question ALICEMARK');
    expect(markdown).toContain('version 2 of 2');

    const ledger = text('ledger.csv')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .filter(Boolean);
    expect(ledger[0]).toBe(
      'id,created_at,transaction_type,amount,balance_after,description,reason,conversation_id,model_name,source,api_key_id',
    );
    expect(ledger.filter((l) => l.includes(',chat_consume,'))).toHaveLength(2);

    expect(JSON.parse(text('share-links.json'))).toHaveLength(1);
    expect(JSON.parse(text('prompt-templates.json'))).toMatchObject([{ title: 'prompt ALICEMARK' }]);
    expect(JSON.parse(text('knowledge-bases.json'))).toMatchObject([{ name: 'kb ALICEMARK' }]);

    // Nothing of Bob's: not his text, his email, his conversation or his files.
    const everything = allText(entries);
    for (const foreign of ['BOBMARK', bob.email, bob.conversationId, bob.image.id]) {
      expect(everything).not.toContain(foreign);
    }
  }

  it('a person downloads a dated ZIP of everything of theirs and nothing of anyone else', async () => {
    const { res, entries, text } = await download(t, '/api/auth/export', alice.token);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const day = t.clock.now().toISOString().slice(0, 10).replace(/-/g, '');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="my-data-${day}.zip"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expectAlicesArchive(entries, text);
  });

  it('writes the transcript in the reader’s language', async () => {
    const { text } = await download(t, '/api/auth/export', alice.token, 'zh-CN');
    expect(text(`conversations/${alice.conversationId}.md`)).toContain('第 2 个版本，共 2 个');
  });

  it('asks for a sign-in', async () => {
    expect((await download(t, '/api/auth/export', undefined)).res.statusCode).toBe(401);
  });

  it('a super administrator exports one person with a reason, and the audit log says who, whom and why', async () => {
    const url = `/api/admin/users/${alice.id}/export?reason=${encodeURIComponent('Subject access request 42')}`;
    const { res, entries, text } = await download(t, url, root);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="user-${alice.id}-data-\\d{8}\\.zip"$`),
    );
    expectAlicesArchive(entries, text);
    const audit = await t.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'user.data_export')
      .where('target_id', '=', String(alice.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.changes).toContain('Subject access request 42');
  });

  it('refuses an export without a reason, in the caller’s language, and records nothing', async () => {
    const before = await t.db.selectFrom('audit_logs').select('id').where('action', '=', 'user.data_export').execute();
    for (const [query, lang, message] of [
      ['', 'en-US', 'Please enter a reason'],
      ['?reason=', 'en-US', 'Please enter a reason'],
      ['?reason=%20%20', 'zh-CN', '请输入原因'],
    ] as const) {
      const res = await t.get(`/api/admin/users/${alice.id}/export${query}`, root, lang);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.data.errors)).toContain(message);
    }
    const after = await t.db.selectFrom('audit_logs').select('id').where('action', '=', 'user.data_export').execute();
    expect(after).toHaveLength(before.length);
  });

  it('leaves out what a held person deleted from their own export, but keeps it in the administrator’s', async () => {
    const held = await stockedPerson(t, 'HELDMARK');
    expect((await t.put(`/api/admin/users/${held.id}/legal-hold`, { on: true, reason: 'Dispute' }, root)).status).toBe(
      200,
    );
    const del = await t.request('DELETE', `/api/chat/conversations/${held.conversationId}`, { token: held.token });
    expect(del.status, del.text).toBe(200);
    const conversationEntry = `conversations/${held.conversationId}.json`;
    const own = await download(t, '/api/auth/export', held.token);
    expect(own.res.statusCode).toBe(200);
    expect(Object.keys(own.entries)).not.toContain(conversationEntry);
    expect(allText(own.entries)).not.toContain(held.image.id);
    const copy = await download(t, `/api/admin/users/${held.id}/export?reason=hold`, root);
    expect(Object.keys(copy.entries)).toContain(conversationEntry);
    const hidden = JSON.parse(copy.text(conversationEntry)) as { hidden_at: string | null };
    expect(hidden.hidden_at).not.toBeNull();
    expect(Object.keys(copy.entries).some((n) => n.startsWith(`files/${held.image.id}-`))).toBe(true);
  });

  it('is the super administrator’s alone: group administrators and plain users are refused, unknown ids are 404', async () => {
    const group = await createGroupAsAdmin(t, root);
    const member = await createUserAsAdmin(t, root, { group_id: group.id });
    const groupAdmin = await createUserAsAdmin(t, root, { group_id: group.id, role: 'admin' });
    const gaToken = (await t.tokensFor(groupAdmin.email, groupAdmin.password)).accessToken;
    for (const [id, token] of [
      [member.id, gaToken],
      [alice.id, gaToken],
      [alice.id, bob.token],
    ] as const) {
      const res = await t.get(`/api/admin/users/${id}/export?reason=curious`, token);
      expect(res.status, res.text).toBe(403);
    }
    expect((await t.get('/api/admin/users/999999/export?reason=x', root)).status).toBe(404);
  });
});
