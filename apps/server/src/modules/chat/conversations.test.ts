import type { Conversation, ConversationDetail, Draft, Message, NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

const BASE = '/api/chat/conversations';

describe('conversations', () => {
  let t: TestApp;
  let token: string;
  let other: string;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    token = (await t.signUp()).session.accessToken;
    other = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (id: string, content: string, auth = token) =>
    t.post<NonStreamAnswer>(`${BASE}/${id}/messages`, { content, stream: false }, auth);

  it('creates with only a model, taking the defaults (temperature from the settings)', async () => {
    await t.setSetting('ai', { default_model: 'fake-echo', temperature: 0.7 });
    const res = await t.post<Conversation>(BASE, { model_name: 'fake-echo' }, token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      title: '',
      model_name: 'fake-echo',
      system_prompt: '',
      is_pinned: false,
      context_length: 20,
      ai_temperature: 0.7,
      priority: 0,
      message_count: 0,
      total_tokens: 0,
      last_message_at: null,
    });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    await t.setSetting('ai', { default_model: 'fake-echo', temperature: 0 });
  });

  it('creates with every field given and requires a model', async () => {
    const body = {
      model_name: 'fake-vision',
      title: 'Planning',
      system_prompt: 'Be brief.',
      context_length: 1000,
      ai_temperature: 0.3,
      priority: 10,
      is_pinned: true,
    };
    const res = await t.post<Conversation>(BASE, body, token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject(body);
    const missing = await t.post(BASE, { title: 'x' }, token, 'en-US');
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors).toEqual(['Please choose a model']);
  });

  it('gets one conversation with its draft, updates it and refuses an unusable model', async () => {
    const conv = await createConversation(t, token);
    await t.post(`${BASE}/${conv.id}/draft`, { content: 'half a thought' }, token);
    const got = await t.get<ConversationDetail>(`${BASE}/${conv.id}`, token);
    expect(got.status).toBe(200);
    expect(got.body.data.draft?.content).toBe('half a thought');

    t.clock.advance(1000);
    const updated = await t.put<Conversation>(
      `${BASE}/${conv.id}`,
      {
        title: 'Renamed',
        model_name: 'fake-vision',
        priority: 3,
        is_pinned: true,
        ai_temperature: 1,
        context_length: 0,
      },
      token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      title: 'Renamed',
      model_name: 'fake-vision',
      priority: 3,
      is_pinned: true,
      ai_temperature: 1,
      context_length: 0,
    });
    expect(updated.body.data.updated_at > conv.updated_at).toBe(true);
    const bad = await t.put(`${BASE}/${conv.id}`, { model_name: 'nope' }, token);
    expect(bad.body.error).toBe('MODEL_UNAVAILABLE');
    const empty = await t.put(`${BASE}/${conv.id}`, { title: '' }, token);
    expect(empty.status).toBe(400);
    expect((await t.get<Conversation>(`${BASE}/${conv.id}`, token)).body.data.model_name).toBe('fake-vision');
  });

  it('names the model by its current display name, also once it is switched off', async () => {
    const conv = await createConversation(t, token, { model_name: 'fake-slow' });
    await t.db
      .updateTable('ai_models')
      .set({ display_name: 'Slow One', is_active: 0 })
      .where('name', '=', 'fake-slow')
      .execute();
    try {
      const detail = await t.get<ConversationDetail>(`${BASE}/${conv.id}`, token);
      expect(detail.body.data).toMatchObject({ model_name: 'fake-slow', model_display_name: 'Slow One' });
    } finally {
      await t.db.updateTable('ai_models').set({ is_active: 1 }).where('name', '=', 'fake-slow').execute();
    }
  });

  it('lists by priority, then most recently updated, with the pagination envelope', async () => {
    const { session } = await t.signUp();
    const a = await createConversation(t, session.accessToken, { title: 'a' });
    t.clock.advance(1000);
    const b = await createConversation(t, session.accessToken, { title: 'b' });
    t.clock.advance(1000);
    await createConversation(t, session.accessToken, { title: 'c', priority: 5 });
    t.clock.advance(1000);
    await send(a.id, 'bump a', session.accessToken);

    const res = await t.get<Conversation[]>(BASE, session.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.data.map((x) => x.title)).toEqual(['c', 'a', 'b']);
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 100,
      total: 3,
      totalPages: 1,
      hasNext: false,
      hasPrev: false,
    });

    const page2 = await t.get<Conversation[]>(`${BASE}?page=2&limit=2`, session.accessToken);
    expect(page2.body.data.map((x) => x.id)).toEqual([b.id]);
    expect(page2.body.pagination).toEqual({
      page: 2,
      limit: 2,
      total: 3,
      totalPages: 2,
      hasNext: false,
      hasPrev: true,
    });
    // Above the page size is clamped, not refused.
    const clamped = await t.get<Conversation[]>(`${BASE}?limit=101`, session.accessToken);
    expect(clamped.status).toBe(200);
    expect(clamped.body.pagination?.limit).toBe(100);
    expect(clamped.body.data).toHaveLength(3);
  });

  it('lists messages oldest first, with the answer after its question', async () => {
    const conv = await createConversation(t, token);
    await send(conv.id, 'first');
    await send(conv.id, 'second');
    const res = await t.get<Message[]>(`${BASE}/${conv.id}/messages`, token);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m) => [m.role, m.content.split('\n')[0]])).toEqual([
      ['user', 'first'],
      ['assistant', 'Echo: first'],
      ['user', 'second'],
      ['assistant', 'Echo: second'],
    ]);
    expect(res.body.data[1]).toMatchObject({ status: 'complete', model_name: 'fake-echo', file: null });
    expect(res.body.data[0]?.model_name).toBeNull();
  });

  it('deletes an answer with its question, lowering message_count by 2', async () => {
    const conv = await createConversation(t, token);
    const one = await send(conv.id, 'one');
    await send(conv.id, 'two');
    const answerId = one.body.data.assistant_message.id;
    const res = await t.request<{ deletedUserMessageId: string; deletedAiMessageId: string }>(
      'DELETE',
      `${BASE}/${conv.id}/messages/${answerId}`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      deletedUserMessageId: one.body.data.user_message.id,
      deletedAiMessageId: answerId,
    });
    const left = await t.get<Message[]>(`${BASE}/${conv.id}/messages`, token);
    expect(left.body.data.map((m) => m.content.split('\n')[0])).toEqual(['two', 'Echo: two']);
    expect((await t.get<Conversation>(`${BASE}/${conv.id}`, token)).body.data.message_count).toBe(2);

    // A question cannot be deleted on its own, and an answer only once.
    const question = left.body.data[0]?.id ?? '';
    expect((await t.request('DELETE', `${BASE}/${conv.id}/messages/${question}`, { token })).status).toBe(404);
    expect((await t.request('DELETE', `${BASE}/${conv.id}/messages/${answerId}`, { token })).status).toBe(404);
  });

  it('never lets message_count go below zero', async () => {
    const conv = await createConversation(t, token);
    const one = await send(conv.id, 'one');
    await t.db.updateTable('conversations').set({ message_count: 1 }).where('id', '=', conv.id).execute();
    await t.request('DELETE', `${BASE}/${conv.id}/messages/${one.body.data.assistant_message.id}`, { token });
    expect((await t.get<Conversation>(`${BASE}/${conv.id}`, token)).body.data.message_count).toBe(0);
  });

  it('clears all messages and resets the counters', async () => {
    const conv = await createConversation(t, token);
    await send(conv.id, 'one');
    const res = await t.post(`${BASE}/${conv.id}/clear`, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ conversationId: conv.id, cleared: true });
    expect((await t.get<Message[]>(`${BASE}/${conv.id}/messages`, token)).body.data).toEqual([]);
    const after = (await t.get<Conversation>(`${BASE}/${conv.id}`, token)).body.data;
    expect(after).toMatchObject({ message_count: 0, total_tokens: 0 });
  });

  it('saves, reads, replaces and deletes a draft on the server; a send clears it', async () => {
    const conv = await createConversation(t, token);
    const url = `${BASE}/${conv.id}/draft`;
    expect((await t.get<Draft | null>(url, token)).body.data).toBeNull();
    const saved = await t.post(url, { content: 'draft one' }, token);
    expect(saved.body.data).toEqual({ saved: true });
    await t.post(url, { content: 'draft two' }, token);
    const got = await t.get<Draft>(url, token);
    expect(got.body.data.content).toBe('draft two');
    expect(new Date(got.body.data.updated_at).toISOString()).toBe(got.body.data.updated_at);
    expect((await t.request('DELETE', url, { token })).status).toBe(200);
    expect((await t.get<Draft | null>(url, token)).body.data).toBeNull();

    await t.post(url, { content: 'about to send' }, token);
    await send(conv.id, 'about to send');
    expect((await t.get<Draft | null>(url, token)).body.data).toBeNull();
    await t.post(url, { content: 'x' }, token);
    await t.post(url, { content: '' }, token);
    expect((await t.get<Draft | null>(url, token)).body.data).toBeNull();
  });

  it('deletes a conversation with its messages and draft', async () => {
    const conv = await createConversation(t, token);
    await send(conv.id, 'one');
    await t.post(`${BASE}/${conv.id}/draft`, { content: 'x' }, token);
    const res = await t.request('DELETE', `${BASE}/${conv.id}`, { token });
    expect(res.status).toBe(200);
    expect((await t.get(`${BASE}/${conv.id}`, token)).status).toBe(404);
    expect(await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute()).toEqual([]);
    expect(
      await t.db.selectFrom('conversation_drafts').select('content').where('conversation_id', '=', conv.id).execute(),
    ).toEqual([]);
    expect((await t.request('DELETE', `${BASE}/${conv.id}`, { token })).status).toBe(404);
  });

  it('answers 404 on every call for another user’s conversation, message or draft, and changes nothing', async () => {
    const conv = await createConversation(t, token, { title: 'mine' });
    const sent = await send(conv.id, 'private');
    await t.post(`${BASE}/${conv.id}/draft`, { content: 'my draft' }, token);
    const answerId = sent.body.data.assistant_message.id;
    const calls: [string, string, unknown?][] = [
      ['GET', `${BASE}/${conv.id}`],
      ['PUT', `${BASE}/${conv.id}`, { title: 'stolen' }],
      ['DELETE', `${BASE}/${conv.id}`],
      ['GET', `${BASE}/${conv.id}/messages`],
      ['POST', `${BASE}/${conv.id}/messages`, { content: 'hi', stream: false }],
      ['POST', `${BASE}/${conv.id}/messages`, { content: 'hi', stream: true }],
      ['DELETE', `${BASE}/${conv.id}/messages/${answerId}`],
      ['POST', `${BASE}/${conv.id}/clear`],
      ['GET', `${BASE}/${conv.id}/draft`],
      ['POST', `${BASE}/${conv.id}/draft`, { content: 'overwritten' }],
      ['DELETE', `${BASE}/${conv.id}/draft`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method as 'GET', url, { token: other, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    expect((await t.get<Conversation[]>(BASE, other)).body.data).toEqual([]);
    const mine = await t.get<ConversationDetail>(`${BASE}/${conv.id}`, token);
    expect(mine.body.data).toMatchObject({ title: 'mine', message_count: 2, draft: { content: 'my draft' } });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await t.get(`${BASE}/00000000-0000-4000-8000-000000000000`, token)).status).toBe(404);
    for (const id of ['not-a-uuid', '%00', "1' OR '1'='1"]) {
      const res = await t.get(`${BASE}/${encodeURIComponent(id)}`, token);
      expect(res.status, id).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
    }
  });

  it('reports the chat balance', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken);
    await send(conv.id, 'spend', session.accessToken);
    const res = await t.get<{ credits_stats: Record<string, unknown> }>('/api/chat/credits', session.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      credits_stats: { quota: 1000, used: 10, remaining: 990, isExpired: false, expireAt: null },
    });
    expect((await t.get('/api/chat/credits')).status).toBe(401);
  });

  it('documents every chat call in the OpenAPI description', async () => {
    const res = await t.request('GET', '/api/docs/json');
    const doc = JSON.parse(res.text) as { paths: Record<string, Record<string, unknown>> };
    const calls: [string, string[]][] = [
      ['/api/chat/models', ['get']],
      ['/api/chat/credits', ['get']],
      ['/api/chat/upload-image', ['post']],
      ['/api/chat/images/{id}', ['get']],
      ['/api/chat/conversations', ['get', 'post']],
      ['/api/chat/conversations/{id}', ['get', 'put', 'delete']],
      ['/api/chat/conversations/{id}/messages', ['get', 'post']],
      ['/api/chat/conversations/{id}/messages/{messageId}', ['delete']],
      ['/api/chat/conversations/{id}/clear', ['post']],
      ['/api/chat/conversations/{id}/draft', ['get', 'post', 'delete']],
    ];
    for (const [path, methods] of calls)
      for (const m of methods) expect(doc.paths[path], `${m} ${path}`).toHaveProperty(m);
  });
});
