import { ADMIN_CALLS, type Conversation, type Message } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { createChatApp } from '../../../test/chat-helpers.js';
import { type Stocked, stockedPerson } from '../../../test/personal-data-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

/**
 * Administrators cannot read people's conversations: the chat's calls find only the
 * caller's own conversations (404 for anyone else's, whatever the caller's role), and no
 * administration call reads conversations or messages. The one way to a person's
 * conversations is the audited export with a reason.
 */
describe('no administrator back door into conversations', () => {
  let t: TestApp;
  let owner: Stocked;
  let admins: { name: string; token: string }[];

  beforeAll(async () => {
    ({ t } = await createChatApp());
    const root = (await t.loginAsAdmin()).accessToken;
    owner = await stockedPerson(t, 'PRIVATEMARK');
    const group = await createGroupAsAdmin(t, root);
    // The owner's own group administrator, and a manager of every user.
    await t.db.updateTable('users').set({ group_id: group.id }).where('id', '=', owner.id).execute();
    const groupAdmin = await createUserAsAdmin(t, root, { group_id: group.id, role: 'admin' });
    const manager = await createUserAsAdmin(t, root, { role: 'admin' });
    const granted = await t.put(`/api/admin/users/${manager.id}`, { extra_permissions: ['user.manage'] }, root);
    expect(granted.status, granted.text).toBe(200);
    admins = [
      { name: 'super administrator', token: root },
      { name: 'group administrator', token: (await t.tokensFor(groupAdmin.email, groupAdmin.password)).accessToken },
      { name: 'user manager', token: (await t.tokensFor(manager.email, manager.password)).accessToken },
    ];
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers 404 to every administrator calling the chat's routes on another person's conversation", async () => {
    const base = `/api/chat/conversations/${owner.conversationId}`;
    const messages = await t.get<Message[]>(`${base}/messages`, owner.token);
    const messageId = messages.body.data[0]!.id;
    const calls: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', base],
      ['GET', `${base}/messages`],
      ['GET', `${base}/draft`],
      ['PUT', base, { title: 'mine now' }],
      ['PUT', `${base}/active`, { message_id: messageId }],
      ['POST', `${base}/messages`, { content: 'hello', stream: false }],
      ['POST', `${base}/messages/${messageId}/regenerate`, { stream: false }],
      ['POST', `${base}/share`, {}],
      ['POST', `${base}/clear`],
      ['DELETE', `${base}/messages/${messageId}`],
      ['DELETE', base],
    ];
    for (const admin of admins) {
      for (const [method, url, body] of calls) {
        const res = await t.request(method, url, { token: admin.token, ...(body !== undefined ? { body } : {}) });
        expect(res.status, `${admin.name}: ${method} ${url} ${res.text.slice(0, 120)}`).toBe(404);
      }
      // Their own lists and searches hold nothing of the owner's.
      const listed = await t.get<Conversation[]>('/api/chat/conversations', admin.token);
      expect(listed.body.data.map((c) => c.id)).not.toContain(owner.conversationId);
      const found = await t.get(`/api/chat/search?q=PRIVATEMARK`, admin.token);
      expect(found.text).not.toContain('PRIVATEMARK');
    }
    // Untouched: the owner still reads every message.
    expect((await t.get<Message[]>(`${base}/messages`, owner.token)).body.data.length).toBe(messages.body.data.length);
  });

  it('has no administration call about conversations or messages', () => {
    const paths = Object.values(ADMIN_CALLS).map((c) => c.path);
    expect(paths.filter((p) => /conversation|message|chat/i.test(p))).toEqual([]);
  });

  it('shows no message text in any administration answer about the owner', async () => {
    for (const url of [
      `/api/admin/users/${owner.id}`,
      `/api/admin/users/${owner.id}/credits/history`,
      `/api/admin/users?search=${encodeURIComponent(owner.email)}`,
    ]) {
      const res = await t.get(url, admins[0]!.token);
      expect(res.status, url).toBe(200);
      expect(res.text, url).not.toContain('PRIVATEMARK');
    }
  });
});
