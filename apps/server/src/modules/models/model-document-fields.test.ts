import type { AdminModel, ChatModel } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRows } from '../../../test/admin-helpers.js';
import { createChatApp, createConversation } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import { type TestApp, unique } from '../../../test/test-app.js';

describe('a model’s kind, context window and document price', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let admin: string;

  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  async function create(body: Record<string, unknown>) {
    return t.post<AdminModel>(
      '/api/admin/models',
      { name: `m-${unique()}`, provider: 'openai_compatible', api_endpoint: fake.url, api_key: 'sk-x-1234', ...body },
      admin,
    );
  }

  it('are written on create (defaults when absent) and on update, and read back by both lists', async () => {
    const plain = await create({});
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({ kind: 'chat', context_window: 128_000, credits_per_1k_document_tokens: 0 });

    const priced = await create({ context_window: 8_000, credits_per_1k_document_tokens: 7 });
    expect(priced.body.data).toMatchObject({ kind: 'chat', context_window: 8_000, credits_per_1k_document_tokens: 7 });
    const row = await t.db.selectFrom('ai_models').selectAll().where('id', '=', priced.body.data.id).executeTakeFirst();
    expect(row).toMatchObject({ context_window: 8_000, credits_per_1k_document_tokens: 7 });

    const edited = await t.put<AdminModel>(
      `/api/admin/models/${priced.body.data.id}`,
      { context_window: 32_000, credits_per_1k_document_tokens: 2 },
      admin,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ context_window: 32_000, credits_per_1k_document_tokens: 2 });

    const user = (await t.signUp()).session.accessToken;
    const offered = (await t.get<ChatModel[]>('/api/chat/models', user)).body.data.find(
      (m) => m.name === priced.body.data.name,
    );
    expect(offered).toMatchObject({ context_window: 32_000, credits_per_1k_document_tokens: 2 });

    const bad = await create({ context_window: 10, credits_per_1k_document_tokens: -1 });
    expect(bad.status).toBe(400);
  });

  it('an embedding model is never offered for chat, nor usable for a conversation or a turn', async () => {
    const embedding = await create({ kind: 'embedding' });
    expect(embedding.body.data.kind).toBe('embedding');
    const { session, creds } = await t.signUp();
    const token = session.accessToken;
    const names = (await t.get<ChatModel[]>('/api/chat/models', token)).body.data.map((m) => m.name);
    expect(names).not.toContain(embedding.body.data.name);
    expect(names).toContain('fake-echo');

    const refused = await t.post('/api/chat/conversations', { model_name: embedding.body.data.name }, token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('MODEL_UNAVAILABLE');

    // A chat model turned into an embedding model: the conversation on it refuses the next turn, unpaid.
    const chat = await create({});
    const conv = await createConversation(t, token, { model_name: chat.body.data.name });
    await t.put(`/api/admin/models/${chat.body.data.id}`, { kind: 'embedding' }, admin);
    const before = await ledgerRows(t, creds.id);
    const send = await t.post(`/api/chat/conversations/${conv.id}/messages`, { content: 'hi', stream: false }, token);
    expect(send.status).toBe(400);
    expect(send.body.error).toBe('MODEL_UNAVAILABLE');
    expect(await ledgerRows(t, creds.id)).toEqual(before);
    expect(fake.requests.filter((r) => r.model === chat.body.data.name)).toEqual([]);
  });
});
