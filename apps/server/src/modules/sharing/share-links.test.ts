import type {
  Conversation,
  Message,
  NonStreamAnswer,
  PublicSystemConfig,
  ShareCreated,
  ShareLink,
  SharedConversation,
} from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const HOUR = 60 * 60 * 1000;
/** The fake model's answers add a block of markdown after their first line. */
const firstLine = (text: string) => text.split('\n')[0];

/** Share links: snapshots that do not change, who may read them, revocation, expiry, visits, continuing. */
describe('share links', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
  });
  afterAll(async () => {
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { token: session.accessToken, id: session.user.id };
  }
  async function send(token: string, convId: string, content: string) {
    const res = await t.post<NonStreamAnswer>(
      `/api/chat/conversations/${convId}/messages`,
      { stream: false, content },
      token,
    );
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }
  /** A conversation of two turns, shared with `body`. */
  async function shared(body: Record<string, unknown> = {}) {
    const owner = await user();
    const conv = await createConversation(t, owner.token, { title: 'Shared title' });
    await send(owner.token, conv.id, 'first question');
    await send(owner.token, conv.id, 'second question');
    const res = await t.post<ShareCreated>(`/api/chat/conversations/${conv.id}/share`, body, owner.token);
    expect(res.status, res.text).toBe(201);
    return { owner, conv, link: res.body.data };
  }
  const read = (token: string, as?: string) => t.get<SharedConversation>(`/api/share/${token}`, as);
  const mine = async (token: string) => (await t.get<ShareLink[]>('/api/chat/shares', token)).body.data;

  it('a signed-in member reads the snapshot; later edits and deletion do not change it', async () => {
    const { owner, conv, link } = await shared();
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`/share/${link.token}`);
    const reader = await user();
    const first = await read(link.token, reader.token);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.title).toBe('Shared title');
    expect(first.body.data.messages.map((m) => [m.role, firstLine(m.content)])).toEqual([
      ['user', 'first question'],
      ['assistant', 'Echo: first question'],
      ['user', 'second question'],
      ['assistant', 'Echo: second question'],
    ]);
    expect(first.body.data.messages[1]!.model_display_name).toBe('fake-echo');

    // The owner goes on, renames, then deletes the conversation: the snapshot stays as it was.
    await send(owner.token, conv.id, 'third question');
    await t.put(`/api/chat/conversations/${conv.id}`, { title: 'Renamed' }, owner.token);
    const after = await read(link.token, reader.token);
    expect(after.body.data).toEqual(first.body.data);
    const del = await t.request('DELETE', `/api/chat/conversations/${conv.id}`, { token: owner.token });
    expect(del.status).toBe(200);
    const gone = await read(link.token, reader.token);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual(first.body.data);
  });

  it('only the branch shown is shared', async () => {
    const owner = await user();
    const conv = await createConversation(t, owner.token);
    const one = await send(owner.token, conv.id, 'q1');
    await send(owner.token, conv.id, 'q2');
    const edit = await t.post<NonStreamAnswer>(
      `/api/chat/conversations/${conv.id}/messages`,
      { stream: false, content: 'q2 edited', parent_id: one.assistant_message.id },
      owner.token,
    );
    expect(edit.status).toBe(200);
    const res = await t.post<ShareCreated>(`/api/chat/conversations/${conv.id}/share`, {}, owner.token);
    const snap = await read(res.body.data.token, owner.token);
    expect(snap.body.data.messages.map((m) => firstLine(m.content))).toEqual([
      'q1',
      'Echo: q1',
      'q2 edited',
      'Echo: q2 edited',
    ]);
  });

  it('a visitor reads a link only when it is public and the site allows public links', async () => {
    const { link: privateLink } = await shared();
    expect((await read(privateLink.token)).status).toBe(404);

    // Public links refused while the site does not allow them.
    const owner = await user();
    const conv = await createConversation(t, owner.token);
    const refused = await t.post(`/api/chat/conversations/${conv.id}/share`, { public: true }, owner.token);
    expect(refused.status).toBe(400);

    // An administrator allows public links in the settings; the public configuration says so.
    const admin = await t.loginAsAdmin();
    const put = await t.put('/api/admin/settings', { sharing: { public_links: true } }, admin.accessToken);
    expect(put.status, put.text).toBe(200);
    const config = await t.get<PublicSystemConfig>('/api/public/system-config');
    expect(config.body.data.sharing).toEqual({ public_links: true });
    try {
      const { link } = await shared({ public: true });
      const open = await read(link.token);
      expect(open.status, open.text).toBe(200);
      expect(open.body.data.public).toBe(true);
      // A private link stays closed to visitors even then.
      expect((await read(privateLink.token)).status).toBe(404);

      // Switching the setting off hides public links again.
      await t.setSetting('sharing', { public_links: false });
      expect((await read(link.token)).status).toBe(404);
      const member = await user();
      expect((await read(link.token, member.token)).status).toBe(200);
    } finally {
      await t.setSetting('sharing', { public_links: false });
    }
  });

  it('a revoked link is not found; others can neither list nor revoke my links', async () => {
    const { owner, link } = await shared();
    const other = await user();
    expect((await mine(other.token)).some((l) => l.id === link.id)).toBe(false);
    const theirs = await t.request('DELETE', `/api/chat/shares/${link.id}`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect((await read(link.token, other.token)).status).toBe(200);

    const revoked = await t.request<ShareLink>('DELETE', `/api/chat/shares/${link.id}`, { token: owner.token });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.data.revoked).toBe(true);
    expect((await read(link.token, other.token)).status).toBe(404);
    expect((await read(link.token, owner.token)).status).toBe(404);
    const listed = (await mine(owner.token)).find((l) => l.id === link.id);
    expect(listed).toMatchObject({ revoked: true, title: 'Shared title' });

    // Sharing and revoking are in the audit log.
    const actions = await t.db
      .selectFrom('audit_logs')
      .select(['action', 'actor_id'])
      .where('target_type', '=', 'share_link')
      .where('target_id', '=', String(link.id))
      .orderBy('seq')
      .execute();
    expect(actions).toEqual([
      { action: 'share.create', actor_id: owner.id },
      { action: 'share.revoke', actor_id: owner.id },
    ]);
  });

  it('an expired link is not found; an expiry must lie ahead', async () => {
    const owner = await user();
    const conv = await createConversation(t, owner.token);
    await send(owner.token, conv.id, 'soon gone');
    const past = await t.post(
      `/api/chat/conversations/${conv.id}/share`,
      { expires_at: new Date(t.clock.now().getTime() - HOUR).toISOString() },
      owner.token,
    );
    expect(past.status).toBe(400);
    const expiresAt = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const res = await t.post<ShareCreated>(
      `/api/chat/conversations/${conv.id}/share`,
      { expires_at: expiresAt },
      owner.token,
    );
    expect(res.status, res.text).toBe(201);
    expect((await read(res.body.data.token, owner.token)).status).toBe(200);
    t.clock.advance(2 * HOUR);
    const reader = await user();
    expect((await read(res.body.data.token, reader.token)).status).toBe(404);
    expect((await mine(owner.token))[0]).toMatchObject({ expires_at: expiresAt, revoked: false });
  });

  it('counts every successful view, and only those', async () => {
    const { owner, link } = await shared();
    const reader = await user();
    await read(link.token, reader.token);
    await read(link.token, reader.token);
    await read(link.token); // a visitor on a private link: not a view
    expect((await mine(owner.token)).find((l) => l.id === link.id)?.visits).toBe(2);
  });

  it('an unknown or malformed token, and another user’s conversation, are not found', async () => {
    const member = await user();
    expect((await read('A'.repeat(43), member.token)).status).toBe(404);
    expect((await read('short', member.token)).status).toBe(400);
    const { conv } = await shared();
    const stranger = await t.post(`/api/chat/conversations/${conv.id}/share`, {}, member.token);
    expect(stranger.status).toBe(404);
  });

  it('continue copies the snapshot into a new conversation of the caller, charging nothing', async () => {
    const { owner, link } = await shared();
    const reader = await user();
    const before = await t.ledgerSum(reader.id);
    const res = await t.post<Conversation>(`/api/share/${link.token}/continue`, undefined, reader.token);
    expect(res.status, res.text).toBe(201);
    const copy = res.body.data;
    expect(copy).toMatchObject({ title: 'Shared title', model_name: 'fake-echo', message_count: 4 });
    const messages = await t.get<Message[]>(`/api/chat/conversations/${copy.id}/messages`, reader.token);
    expect(messages.body.data.map((m) => firstLine(m.content))).toEqual([
      'first question',
      'Echo: first question',
      'second question',
      'Echo: second question',
    ]);
    expect(await t.ledgerSum(reader.id)).toBe(before);
    const listed = await t.get<Conversation[]>('/api/chat/conversations', reader.token);
    expect(listed.body.data.map((c) => c.id)).toContain(copy.id);

    // The copy goes on like any conversation: the model sees the copied history.
    await send(reader.token, copy.id, 'third question');
    const sent = await fake.waitFor((r) => r.lastUserText === 'third question');
    expect(sent.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'first question',
      'second question',
      'third question',
    ]);
    const again = await t.get<Message[]>(`/api/chat/conversations/${copy.id}/messages`, reader.token);
    expect(again.body.data.map((m) => firstLine(m.content)).slice(-2)).toEqual([
      'third question',
      'Echo: third question',
    ]);
    await expectLedgerConsistent(t);

    // Continuing needs a sign-in; a revoked link cannot be continued.
    expect((await t.post(`/api/share/${link.token}/continue`)).status).toBe(401);
    await t.request('DELETE', `/api/chat/shares/${link.id}`, { token: owner.token });
    expect((await t.post(`/api/share/${link.token}/continue`, undefined, reader.token)).status).toBe(404);
  });

  it('continue falls back to the default model when the snapshot’s is not usable', async () => {
    const { owner, conv } = await (async () => {
      const o = await user();
      const c = await createConversation(t, o.token, { model_name: 'fake-slow' });
      return { owner: o, conv: c };
    })();
    const res = await t.post<ShareCreated>(`/api/chat/conversations/${conv.id}/share`, {}, owner.token);
    await t.db.updateTable('ai_models').set({ is_active: 0 }).where('name', '=', 'fake-slow').execute();
    try {
      const reader = await user();
      const copy = await t.post<Conversation>(`/api/share/${res.body.data.token}/continue`, undefined, reader.token);
      expect(copy.status, copy.text).toBe(201);
      expect(copy.body.data.model_name).not.toBe('fake-slow');
    } finally {
      await t.db.updateTable('ai_models').set({ is_active: 1 }).where('name', '=', 'fake-slow').execute();
    }
  });
});
