import type { ChatModel, Conversation, NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_KEY, addModel, createChatApp, createConversation, sendStreamed } from '../../../test/chat-helpers.js';
import { type FakeUpstream, startFakeUpstream } from '../../../test/fake-upstream.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { SecretBox } from '../../lib/auth/secret-box.js';

describe('GET /api/chat/models', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let token: string;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    token = (await t.signUp()).session.accessToken;
    await addModel(t, fake, { name: 'inactive-model', is_active: false });
    const groupId = await t.db
      .insertInto('user_groups')
      .values({
        name: 'research',
        description: '',
        color: '#000',
        sort_order: 1,
        status: 'active',
        credits_pool: 0,
        credits_pool_used: 0,
        user_limit: null,
        site_name: null,
        site_logo: null,
        site_config_enabled: 0,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addModel(t, fake, { name: 'research-only', group_ids: [groupId.id], sort_order: -1 });
    await addModel(t, fake, { name: 'default-group-too', group_ids: [1, groupId.id], sort_order: -2 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the active models the user’s group may use, in sort order, with the contract fields only', async () => {
    const res = await t.get<ChatModel[]>('/api/chat/models', token);
    expect(res.status).toBe(200);
    const names = res.body.data.map((m) => m.name);
    expect(names).not.toContain('inactive-model');
    expect(names).not.toContain('research-only');
    expect(names[0]).toBe('default-group-too');
    expect(names.slice(-2)).toEqual(['fake-echo', 'fake-vision']);
    const orders = res.body.data.map((m) => m.sort_order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    const vision = res.body.data.find((m) => m.name === 'fake-vision');
    expect(vision).toMatchObject({
      display_name: 'fake-vision',
      provider: 'openai_compatible',
      credits_per_chat: 10,
      stream_enabled: true,
      image_upload_enabled: true,
    });
    expect(Object.keys(vision ?? {}).sort()).toEqual(
      [
        'context_window',
        'credits_per_1k_document_tokens',
        'credits_per_chat',
        'display_name',
        'id',
        'image_upload_enabled',
        'name',
        'provider',
        'sort_order',
        'stream_enabled',
      ].sort(),
    );
  });

  it('never sends an API key or endpoint to the browser', async () => {
    const res = await t.get('/api/chat/models', token);
    expect(res.text).not.toContain(FAKE_KEY);
    expect(res.text).not.toMatch(/api_key|api_endpoint|127\.0\.0\.1/);
  });

  it('refuses a model the group may not use when creating a conversation', async () => {
    for (const model_name of ['research-only', 'inactive-model', 'no-such-model']) {
      const res = await t.post('/api/chat/conversations', { model_name }, token);
      expect(res.status, model_name).toBe(400);
      expect(res.body.error).toBe('MODEL_UNAVAILABLE');
    }
    expect((await t.post('/api/chat/conversations', { model_name: 'default-group-too' }, token)).status).toBe(201);
  });

  it('needs sign-in', async () => {
    expect((await t.get('/api/chat/models')).status).toBe(401);
  });

  it('stores the key encrypted and sends it upstream decrypted', async () => {
    const rows = await t.db.selectFrom('ai_models').select(['name', 'api_key_encrypted']).execute();
    for (const r of rows) {
      expect(r.api_key_encrypted).toMatch(/^v1:/);
      expect(r.api_key_encrypted).not.toContain(FAKE_KEY);
    }
    const conv = await createConversation(t, token);
    await sendStreamed(t, token, conv.id, { content: 'key check' });
    const seen = fake.requests.find((r) => r.lastUserText === 'key check');
    expect(seen?.authorization).toBe(`Bearer ${FAKE_KEY}`);
  });

  it('reaches an `openai` provider model through the Chat Completions API at its endpoint', async () => {
    await addModel(t, fake, { name: 'gpt-fake', provider: 'openai' });
    const conv = await createConversation(t, token, { model_name: 'gpt-fake' });
    const res = await t.post<NonStreamAnswer>(
      `/api/chat/conversations/${conv.id}/messages`,
      { content: 'via openai', stream: false },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.assistant_message.content).toContain('Echo: via openai');
    expect(fake.requests.find((r) => r.lastUserText === 'via openai')?.model).toBe('gpt-fake');
  });

  it('answers an upstream failure with UPSTREAM_ERROR and a translated message, never the upstream text', async () => {
    const conv = await createConversation(t, token, { model_name: 'fake-error' });
    const res = await t.request('POST', `/api/chat/conversations/${conv.id}/messages`, {
      body: { content: 'boom', stream: false },
      token,
      lang: 'en-US',
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error: 'UPSTREAM_ERROR' });
    expect(res.body.message).toBe('The AI service is temporarily unavailable, please try again later');
    expect(res.text).not.toContain('FAKE-UPSTREAM-SECRET');
    expect(res.text).not.toContain(FAKE_KEY);
    const streamed = await sendStreamed(t, token, conv.id, { content: 'boom' });
    expect(streamed.text).not.toContain('FAKE-UPSTREAM-SECRET');
    expect(streamed.events.at(-1)).toEqual({
      event: 'error',
      data: { code: 502, error: 'UPSTREAM_ERROR', message: 'AI 服务暂时不可用，请稍后再试' },
    });
  });
});

describe('default model seeded from OPENAI_API_KEY', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('creates ai.default_model as OpenAI-compatible when a base URL is given, once', async () => {
    const t = await createTestApp({ config: { openaiApiKey: 'sk-seeded', openaiBaseUrl: fake.url } });
    try {
      await t.reopen();
      const rows = await t.db.selectFrom('ai_models').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: 'gpt-4.1-mini-op', provider: 'openai_compatible', api_endpoint: fake.url });
      expect(rows[0]?.api_key_encrypted).not.toContain('sk-seeded');
      const token = (await t.signUp()).session.accessToken;
      const conv = await t.post<Conversation>('/api/chat/conversations', { model_name: 'gpt-4.1-mini-op' }, token);
      const res = await t.post<NonStreamAnswer>(
        `/api/chat/conversations/${conv.body.data.id}/messages`,
        { content: 'seeded', stream: false },
        token,
      );
      expect(res.status).toBe(200);
      expect(fake.requests.find((r) => r.lastUserText === 'seeded')?.authorization).toBe('Bearer sk-seeded');
    } finally {
      await t.close();
    }
  });

  it('uses the OpenAI provider without a base URL, follows the settings name, and seeds nothing without a key', async () => {
    const t = await createTestApp({ config: { openaiApiKey: 'sk-seeded' } });
    try {
      expect(await t.db.selectFrom('ai_models').select(['name', 'provider', 'api_endpoint']).execute()).toEqual([
        { name: 'gpt-4.1-mini-op', provider: 'openai', api_endpoint: null },
      ]);
      await t.setSetting('ai', { default_model: 'house-model', temperature: 0 });
      await t.reopen();
      expect((await t.db.selectFrom('ai_models').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual([
        'gpt-4.1-mini-op',
        'house-model',
      ]);
    } finally {
      await t.close();
    }
    const bare = await createTestApp();
    try {
      expect(await bare.db.selectFrom('ai_models').selectAll().execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('SecretBox', () => {
  it('round-trips, uses a fresh IV each time, and refuses a tampered value or another secret', () => {
    const box = new SecretBox('a'.repeat(32));
    const a = box.encrypt('sk-secret');
    const b = box.encrypt('sk-secret');
    expect(a).not.toBe(b);
    expect(box.decrypt(a)).toBe('sk-secret');
    const parts = a.split(':');
    const data = Buffer.from(parts[3] ?? '', 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    expect(() => box.decrypt([parts[0], parts[1], parts[2], data.toString('base64url')].join(':'))).toThrow();
    expect(() => new SecretBox('b'.repeat(32)).decrypt(a)).toThrow();
  });
});
