import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdminModel, ChatModel, ModelTestResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSession,
  auditHeadSeq,
  auditRowsAfter,
  createGroupAsAdmin,
  createUserAsAdmin,
  ledgerRows,
} from '../../../test/admin-helpers.js';
import { createChatApp, createConversation, sendStreamed } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import { type TestApp, unique } from '../../../test/test-app.js';

/** The key every model created here carries; it must never come back out. */
const KEY = 'sk-admin-TOPSECRET-0123456789abcd';
/** A port fetch refuses to call at all, and (below) one where nothing listens. */
const DEAD = 'http://127.0.0.1:9/v1';

/** The address of a port that was just free: connecting to it is refused. */
async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

interface StubRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A provider stand-in for what the fake upstream does not do: Anthropic and Google list
 * formats, an upstream that echoes the key in its errors, a redirect, a non-list answer.
 */
async function startProviderStub() {
  const requests: StubRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const url = req.url ?? '';
    const given = String(req.headers.authorization ?? req.headers['x-api-key'] ?? '');
    req.resume();
    if (url.startsWith('/anthropic/v1/models')) {
      return send(200, { data: [{ id: 'claude-b' }, { id: 'claude-a' }, { id: 'claude-a' }], has_more: false });
    }
    if (url.startsWith('/google/v1beta/models')) {
      return send(200, { models: [{ name: 'models/gemini-z' }, { name: 'models/gemini-a' }, { name: 7 }] });
    }
    if (url.startsWith('/echo-key/')) {
      return send(401, { error: { message: `Incorrect API key provided: ${given}`, type: 'invalid_request_error' } });
    }
    if (url.startsWith('/redirect/')) return send(302, {}, { location: 'http://127.0.0.1:9/v1/models' });
    if (url.startsWith('/not-a-list/')) return send(200, { hello: 'world' });
    return send(404, { error: { message: 'not here' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every line the app logs from now on, kept instead of printed. */
function captureLogs(t: TestApp): string[] {
  const lines: string[] = [];
  const log = t.app.log as unknown as Record<symbol, { write: (chunk: string) => boolean }>;
  const streamSym = Object.getOwnPropertySymbols(log).find((s) => s.toString() === 'Symbol(pino.stream)');
  const stream = streamSym ? log[streamSym] : undefined;
  if (!stream) throw new Error('no pino stream found on the app logger');
  stream.write = (chunk: string) => {
    lines.push(String(chunk));
    return true;
  };
  return lines;
}

describe('model administration', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let stub: Awaited<ReturnType<typeof startProviderStub>>;
  let token: string;
  let logs: string[];
  let refused: string;
  /** Raw answer texts of every admin call made through `call`, searched for the key at the end. */
  const answers: string[] = [];

  beforeAll(async () => {
    ({ t, fake } = await createChatApp({ config: { logLevel: 'trace' } }));
    logs = captureLogs(t);
    stub = await startProviderStub();
    refused = await closedPortUrl();
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await stub.close();
    await t.close();
  });

  async function call<T = AdminModel>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    as = token,
  ) {
    const res = await t.request<T>(method, `/api/admin/models${url}`, {
      ...(body !== undefined ? { body } : {}),
      token: as,
    });
    answers.push(res.text);
    return res;
  }

  async function createModel(overrides: Record<string, unknown> = {}): Promise<AdminModel> {
    const res = await call('POST', '', {
      name: `m-${unique()}`,
      provider: 'openai_compatible',
      api_endpoint: fake.url,
      api_key: KEY,
      ...overrides,
    });
    if (res.status !== 201) throw new Error(`create model: ${res.status} ${res.text}`);
    return res.body.data;
  }

  const rowOf = (id: number) => t.db.selectFrom('ai_models').selectAll().where('id', '=', id).executeTakeFirst();

  describe('CRUD', () => {
    it('prices a model created without a price at the settings’ default credits per chat', async () => {
      await t.setSetting('credits', { enabled: true, min_credits_for_chat: 0, default_credits_per_chat: 3 });
      try {
        expect((await createModel()).credits_per_chat).toBe(3);
        expect((await createModel({ credits_per_chat: 12 })).credits_per_chat).toBe(12);
      } finally {
        await t.setSetting('credits', { enabled: true, min_credits_for_chat: 0, default_credits_per_chat: 10 });
      }
    });

    it('creates a model with defaults, the key sealed and shown only as set + hint', async () => {
      const name = `gpt-${unique()}`;
      const res = await call('POST', '', { name, provider: 'openai', api_key: KEY });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        name,
        display_name: name,
        provider: 'openai',
        api_endpoint: null,
        api_key_set: true,
        api_key_hint: '…abcd',
        credits_per_chat: 10,
        stream_enabled: true,
        image_upload_enabled: false,
        is_active: true,
        sort_order: 0,
        group_ids: [],
        last_test_at: null,
        last_test_status: null,
        last_test_message: null,
        last_test_latency_ms: null,
      });
      expect(res.text).not.toContain(KEY);
      expect(Object.keys(res.body.data)).not.toContain('api_key');
      const row = await rowOf(res.body.data.id);
      expect(row?.api_key_encrypted).toMatch(/^v1:/);
      expect(row?.api_key_encrypted).not.toContain(KEY);
      const list = await call<AdminModel[]>('GET', '');
      expect(list.status).toBe(200);
      expect(list.body.data.find((m) => m.id === res.body.data.id)).toEqual(res.body.data);
    });

    it('creates without a key (hint null) and shows no characters of a short key', async () => {
      const bare = await createModel({ api_key: undefined });
      expect(bare).toMatchObject({ api_key_set: false, api_key_hint: null });
      const short = await createModel({ api_key: 'abc12' });
      expect(short).toMatchObject({ api_key_set: true, api_key_hint: '…' });
    });

    it('answers 409 CONFLICT_MODEL_NAME for a duplicate name on create and on rename', async () => {
      const a = await createModel();
      const b = await createModel();
      const again = await call('POST', '', { name: a.name, provider: 'openai' });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('CONFLICT_MODEL_NAME');
      const rename = await call('PUT', `/${b.id}`, { name: a.name });
      expect(rename.status).toBe(409);
      expect(rename.body.error).toBe('CONFLICT_MODEL_NAME');
      expect((await rowOf(b.id))?.name).toBe(b.name);
      // Keeping its own name is no conflict.
      expect((await call('PUT', `/${a.id}`, { name: a.name, display_name: 'Same' })).status).toBe(200);
    });

    it('edits fields; the key is kept when absent, replaced by a value, removed by null or ""', async () => {
      const m = await createModel({ display_name: 'Before' });
      const edited = await call('PUT', `/${m.id}`, {
        display_name: 'After',
        credits_per_chat: 3,
        stream_enabled: false,
        image_upload_enabled: true,
        is_active: false,
        sort_order: 9,
      });
      expect(edited.status).toBe(200);
      expect(edited.body.data).toMatchObject({
        display_name: 'After',
        credits_per_chat: 3,
        stream_enabled: false,
        image_upload_enabled: true,
        is_active: false,
        sort_order: 9,
        api_key_set: true,
        api_key_hint: '…abcd',
      });
      const sealed = (await rowOf(m.id))?.api_key_encrypted;
      expect(sealed).toBeTruthy();

      const replaced = await call('PUT', `/${m.id}`, { api_key: 'sk-another-key-WXYZ' });
      expect(replaced.body.data).toMatchObject({ api_key_set: true, api_key_hint: '…WXYZ' });
      expect((await rowOf(m.id))?.api_key_encrypted).not.toBe(sealed);

      for (const removal of [null, '', '   ']) {
        await call('PUT', `/${m.id}`, { api_key: 'sk-put-back-0000' });
        const removed = await call('PUT', `/${m.id}`, { api_key: removal });
        expect(removed.status, JSON.stringify(removal)).toBe(200);
        expect(removed.body.data).toMatchObject({ api_key_set: false, api_key_hint: null });
        expect((await rowOf(m.id))?.api_key_encrypted).toBeNull();
      }
      // An empty display name falls back to the model id.
      expect((await call('PUT', `/${m.id}`, { display_name: '' })).body.data.display_name).toBe(m.name);
    });

    it('refuses bad input with translated messages', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ provider: 'openai' }, 'VALIDATION_FAILED'],
        [{ name: 'has space', provider: 'openai' }, 'Model id may not contain spaces'],
        [{ name: 'x', provider: 'nope' }, 'Unknown provider'],
        [{ name: 'x', provider: 'openai', api_endpoint: 'ftp://host' }, 'Enter a valid address'],
        [{ name: 'x', provider: 'openai', credits_per_chat: -1 }, 'Credits per chat must be'],
      ];
      for (const [body, expected] of cases) {
        const res = await t.request('POST', '/api/admin/models', { body, token, lang: 'en-US' });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
        expect(`${res.body.error} ${res.body.message}`).toContain(expected);
      }
      const zh = await t.request('POST', '/api/admin/models', { body: { name: 'x', provider: 'nope' }, token });
      expect(zh.status).toBe(400);
      expect(zh.body.message).not.toBe('Unknown provider');
    });

    it('answers 404 for a model that does not exist', async () => {
      expect((await call('PUT', '/2147483647', { display_name: 'x' })).status).toBe(404);
      expect((await call('DELETE', '/2147483647')).status).toBe(404);
      expect((await call('POST', '/2147483647/test')).status).toBe(404);
      expect((await call('GET', '/2147483647/groups')).status).toBe(404);
      expect((await call('PUT', '/2147483647/groups', { group_ids: [] })).status).toBe(404);
    });

    it('deletes a model; its conversations stay readable and refuse new messages', async () => {
      const m = await createModel();
      const user = await t.signUp();
      const conv = await createConversation(t, user.session.accessToken, { model_name: m.name });
      const sent = await sendStreamed(t, user.session.accessToken, conv.id, { content: 'before delete' });
      expect(sent.status).toBe(200);
      const del = await call<{ id: number }>('DELETE', `/${m.id}`);
      expect(del.status).toBe(200);
      expect(del.body.data).toEqual({ id: m.id });
      expect(await rowOf(m.id)).toBeUndefined();
      expect(await t.db.selectFrom('ai_model_groups').selectAll().where('model_id', '=', m.id).execute()).toEqual([]);

      const read = await t.get<{ model_name: string }>(`/api/chat/conversations/${conv.id}`, user.session.accessToken);
      expect(read.status).toBe(200);
      expect(read.body.data.model_name).toBe(m.name);
      const messages = await t.get<unknown[]>(`/api/chat/conversations/${conv.id}/messages`, user.session.accessToken);
      expect(messages.status).toBe(200);
      expect(messages.body.data).toHaveLength(2);
      const again = await t.post(
        `/api/chat/conversations/${conv.id}/messages`,
        { content: 'after delete', stream: false },
        user.session.accessToken,
      );
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('MODEL_UNAVAILABLE');
    });
  });

  describe('audit', () => {
    it('records create, update, groups, sort and delete — with key facts, never the key', async () => {
      const group = await createGroupAsAdmin(t, token);
      const from = await auditHeadSeq(t);
      const m = await createModel();
      await call('PUT', `/${m.id}`, { display_name: 'Audited', api_key: 'sk-rotated-key-00abcd' });
      await call('PUT', `/${m.id}`, { api_key: null });
      await call('PUT', `/${m.id}/groups`, { group_ids: [group.id] });
      await call('PUT', '/sort-order', { sort_orders: [{ id: m.id, sort_order: 42 }] });
      await call('DELETE', `/${m.id}`);
      const rows = await auditRowsAfter(t, from);
      expect(rows.map((r) => r.action)).toEqual([
        'model.create',
        'model.update',
        'model.update',
        'model.groups',
        'model.sort',
        'model.delete',
      ]);
      for (const r of rows) {
        expect(r.raw).not.toContain(KEY);
        expect(r.raw).not.toContain('sk-rotated-key-00abcd');
        expect(r.raw).not.toContain('[REDACTED]');
        expect(r.target_type).toBe('model');
      }
      const [created, rotated, removed, groups, sorted, deleted] = rows;
      expect(created?.changes.after).toMatchObject({ name: m.name, key_set: true, key_hint: '…abcd' });
      // Same last four characters: the hint does not change, the flag says the key did.
      expect(rotated?.changes.before).toEqual({ display_name: m.name });
      expect(rotated?.changes.after).toEqual({ display_name: 'Audited', key_changed: true });
      expect(removed?.changes).toEqual({
        before: { key_set: true, key_hint: '…abcd' },
        after: { key_set: false, key_hint: null },
      });
      expect(groups?.changes).toEqual({ before: { group_ids: [] }, after: { group_ids: [group.id] } });
      expect(sorted?.changes).toEqual({
        before: { sort_orders: [{ id: m.id, sort_order: 0 }] },
        after: { sort_orders: [{ id: m.id, sort_order: 42 }] },
      });
      expect(deleted?.changes.before).toMatchObject({ name: m.name, key_set: false });
    });
  });

  describe('sort order', () => {
    it('sets each given order in one transaction and answers the whole list in order', async () => {
      const [a, b, c] = [await createModel(), await createModel(), await createModel()];
      const res = await call<AdminModel[]>('PUT', '/sort-order', {
        sort_orders: [
          { id: a.id, sort_order: 503 },
          { id: b.id, sort_order: 501 },
          { id: c.id, sort_order: 502 },
        ],
      });
      expect(res.status).toBe(200);
      const ids = res.body.data.map((m) => m.id);
      expect(ids.slice(-3)).toEqual([b.id, c.id, a.id]);
      expect(ids).toHaveLength((await t.db.selectFrom('ai_models').select('id').execute()).length);
      const orders = res.body.data.map((m) => m.sort_order);
      expect(orders).toEqual([...orders].sort((x, y) => x - y));
    });

    it('changes nothing when one id is unknown (404) or listed twice (400)', async () => {
      const a = await createModel({ sort_order: 7 });
      const missing = await call('PUT', '/sort-order', {
        sort_orders: [
          { id: a.id, sort_order: 1 },
          { id: 2_147_483_647, sort_order: 2 },
        ],
      });
      expect(missing.status).toBe(404);
      const twice = await call('PUT', '/sort-order', {
        sort_orders: [
          { id: a.id, sort_order: 1 },
          { id: a.id, sort_order: 2 },
        ],
      });
      expect(twice.status).toBe(400);
      expect(twice.body.error).toBe('VALIDATION_FAILED');
      expect((await rowOf(a.id))?.sort_order).toBe(7);
    });
  });

  describe('connection test', () => {
    it('succeeds against the fake upstream and stores the result on the row', async () => {
      const m = await createModel({ name: `fake-echo-${unique()}` });
      const from = await auditHeadSeq(t);
      const res = await call<ModelTestResult>('POST', `/${m.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ success: true, status: 'success', message: 'OK' });
      expect(res.body.data.latency_ms).toBeGreaterThanOrEqual(0);
      expect(res.body.data.model).toMatchObject({
        id: m.id,
        last_test_status: 'success',
        last_test_message: 'OK',
        last_test_latency_ms: res.body.data.latency_ms,
      });
      expect(res.body.data.model.last_test_at).toBeTruthy();
      const sent = fake.requests.filter((r) => r.model === m.name);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.authorization).toBe(`Bearer ${KEY}`);
      const row = await rowOf(m.id);
      expect(row).toMatchObject({ last_test_status: 'success', last_test_latency_ms: res.body.data.latency_ms });
      const [audit] = await auditRowsAfter(t, from);
      expect(audit?.action).toBe('model.test');
      expect(audit?.changes.after).toMatchObject({ last_test_status: 'success' });
    });

    it('reports an upstream error as a failed result (200), the message stored', async () => {
      // The fake fails every call to the model named fake-error.
      const { id } = await t.db
        .selectFrom('ai_models')
        .select('id')
        .where('name', '=', 'fake-error')
        .executeTakeFirstOrThrow();
      const res = await call<ModelTestResult>('POST', `/${id}/test`);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('failed');
      expect(res.body.data.success).toBe(false);
      expect(res.body.data.message).toContain('fake upstream failure');
      expect(res.body.data.message.length).toBeLessThanOrEqual(500);
      expect(await rowOf(id)).toMatchObject({ last_test_status: 'failed', last_test_message: res.body.data.message });
    });

    it('reports a dead port as failed with the network reason', async () => {
      for (const [endpoint, reason] of [
        [refused, /ECONNREFUSED/],
        [DEAD, /Cannot connect|bad port/i],
      ] as const) {
        const m = await createModel({ api_endpoint: endpoint });
        const res = await call<ModelTestResult>('POST', `/${m.id}/test`);
        expect(res.status).toBe(200);
        expect(res.body.data.status).toBe('failed');
        expect(res.body.data.message).toMatch(reason);
        expect(res.body.data.model.last_test_status).toBe('failed');
        expect((await rowOf(m.id))?.last_test_message).toBe(res.body.data.message);
      }
    });

    it('masks the key when the upstream echoes it', async () => {
      const m = await createModel({ api_endpoint: `${stub.base}/echo-key/v1` });
      const res = await call<ModelTestResult>('POST', `/${m.id}/test`);
      expect(res.body.data.status).toBe('failed');
      expect(res.body.data.message).toContain('Incorrect API key provided');
      expect(res.body.data.message).toContain('***');
      expect(res.text).not.toContain(KEY);
      expect((await rowOf(m.id))?.last_test_message).not.toContain(KEY);
    });

    it('fails plainly for a configuration that cannot work', async () => {
      const m = await createModel({ api_endpoint: null });
      const res = await call<ModelTestResult>('POST', `/${m.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'failed' });
      expect(res.body.data.message).toContain('endpoint');
    });

    it('forgets the stored result when the endpoint, key, name or provider changes', async () => {
      const m = await createModel();
      await call('POST', `/${m.id}/test`);
      expect((await call('PUT', `/${m.id}`, { display_name: 'cosmetic' })).body.data.last_test_status).toBe('success');
      const moved = await call('PUT', `/${m.id}`, { api_endpoint: DEAD });
      expect(moved.body.data).toMatchObject({ last_test_status: null, last_test_at: null, last_test_latency_ms: null });
    });
  });

  describe('discovery', () => {
    it('lists the models of an OpenAI-compatible endpoint with a typed key, sorted', async () => {
      const res = await call<{ models: string[] }>('POST', '/discover', {
        provider: 'openai_compatible',
        api_endpoint: fake.url,
        api_key: KEY,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.models).toEqual([...res.body.data.models].sort());
      expect(res.body.data.models).toEqual(expect.arrayContaining(['fake-echo', 'fake-error', 'fake-vision']));
    });

    it('uses a stored model’s endpoint and key by model_id', async () => {
      const m = await createModel({ provider: 'anthropic', api_endpoint: `${stub.base}/anthropic/v1` });
      const res = await call<{ models: string[] }>('POST', '/discover', { model_id: m.id });
      expect(res.status).toBe(200);
      expect(res.body.data.models).toEqual(['claude-a', 'claude-b']);
      const seen = stub.requests.at(-1);
      expect(seen?.url).toBe('/anthropic/v1/models?limit=1000');
      expect(seen?.headers['x-api-key']).toBe(KEY);
      expect(seen?.headers['anthropic-version']).toBe('2023-06-01');
      expect(seen?.headers.authorization).toBeUndefined();

      const openai = await createModel({ provider: 'openai' });
      await t.db.updateTable('ai_models').set({ api_endpoint: fake.url }).where('id', '=', openai.id).execute();
      const byId = await call<{ models: string[] }>('POST', '/discover', { model_id: openai.id });
      expect(byId.status).toBe(200);
      expect(byId.body.data.models).toContain('fake-echo');
      expect((await call('POST', '/discover', { model_id: 2_147_483_647 })).status).toBe(404);
    });

    it('reads Google’s list without the models/ prefix, the key in its header', async () => {
      const res = await call<{ models: string[] }>('POST', '/discover', {
        provider: 'google',
        api_endpoint: `${stub.base}/google/v1beta`,
        api_key: KEY,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.models).toEqual(['gemini-a', 'gemini-z']);
      const seen = stub.requests.at(-1);
      expect(seen?.url).toBe('/google/v1beta/models?pageSize=1000');
      expect(seen?.headers['x-goog-api-key']).toBe(KEY);
    });

    it('answers 502 UPSTREAM_UNREACHABLE for a dead port, an error status, a redirect or a non-list', async () => {
      const cases: [string, RegExp][] = [
        [DEAD, /bad port/],
        [refused, /ECONNREFUSED/],
        [`${stub.base}/echo-key/v1`, /HTTP 401: Incorrect API key provided/],
        [`${stub.base}/redirect/v1`, /HTTP 302/],
        [`${stub.base}/not-a-list/v1`, /not a model list/],
      ];
      for (const [endpoint, detail] of cases) {
        const res = await t.request('POST', '/api/admin/models/discover', {
          body: { provider: 'openai_compatible', api_endpoint: endpoint, api_key: KEY },
          token,
          lang: 'en-US',
        });
        answers.push(res.text);
        expect(res.status, endpoint).toBe(502);
        expect(res.body.error).toBe('UPSTREAM_UNREACHABLE');
        expect(res.body.message).toMatch(/^Could not reach the model service: /);
        expect(res.body.message).toMatch(detail);
        expect(res.text).not.toContain(KEY);
      }
      // The redirect was not followed (the key would have travelled with it).
      expect(stub.requests.filter((r) => r.url.startsWith('/v1/models'))).toEqual([]);
    });

    it('refuses an OpenAI-compatible discovery without an endpoint as bad input', async () => {
      const res = await t.request('POST', '/api/admin/models/discover', {
        body: { provider: 'openai_compatible', api_key: KEY },
        token,
        lang: 'en-US',
      });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual(['Enter a valid address starting with http:// or https://']);
    });
  });

  describe('group availability', () => {
    let groupA: { id: number };
    let groupB: { id: number };
    let memberA: string;
    let memberB: string;
    let memberAId: number;
    beforeAll(async () => {
      groupA = await createGroupAsAdmin(t, token);
      groupB = await createGroupAsAdmin(t, token);
      const a = await createUserAsAdmin(t, token, { group_id: groupA.id });
      const b = await createUserAsAdmin(t, token, { group_id: groupB.id });
      memberAId = a.id;
      memberA = (await t.tokensFor(a.email, a.password)).accessToken;
      memberB = (await t.tokensFor(b.email, b.password)).accessToken;
    });

    const chatModels = async (as: string) =>
      (await t.get<ChatModel[]>('/api/chat/models', as)).body.data.map((m) => m.name);

    it('sets groups on create, reads and replaces them; empty opens the model to everyone', async () => {
      const m = await createModel({ group_ids: [groupA.id, groupA.id] });
      expect(m.group_ids).toEqual([groupA.id]);
      expect((await call<{ group_ids: number[] }>('GET', `/${m.id}/groups`)).body.data).toEqual({
        group_ids: [groupA.id],
      });
      expect(await chatModels(memberA)).toContain(m.name);
      expect(await chatModels(memberB)).not.toContain(m.name);

      const both = await call<{ group_ids: number[] }>('PUT', `/${m.id}/groups`, { group_ids: [groupB.id, groupA.id] });
      expect(both.body.data).toEqual({ group_ids: [groupA.id, groupB.id] });
      expect(await chatModels(memberB)).toContain(m.name);

      const onlyB = await call('PUT', `/${m.id}`, { group_ids: [groupB.id] });
      expect(onlyB.body.data.group_ids).toEqual([groupB.id]);
      expect(await chatModels(memberA)).not.toContain(m.name);

      await call('PUT', `/${m.id}/groups`, { group_ids: [] });
      expect(await chatModels(memberA)).toContain(m.name);
      expect(await chatModels(memberB)).toContain(m.name);
    });

    it('refuses unknown groups with a translated validation error and changes nothing', async () => {
      const m = await createModel({ group_ids: [groupA.id] });
      for (const res of [
        await t.request('PUT', `/api/admin/models/${m.id}/groups`, {
          body: { group_ids: [groupA.id, 2_147_483_647] },
          token,
          lang: 'en-US',
        }),
        await t.request('PUT', `/api/admin/models/${m.id}`, {
          body: { group_ids: [2_147_483_647] },
          token,
          lang: 'en-US',
        }),
        await t.request('POST', '/api/admin/models', {
          body: { name: `m-${unique()}`, provider: 'openai', group_ids: [2_147_483_647] },
          token,
          lang: 'en-US',
        }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
        expect(res.body.data.errors).toEqual(['The group does not exist']);
      }
      expect((await call<{ group_ids: number[] }>('GET', `/${m.id}/groups`)).body.data.group_ids).toEqual([groupA.id]);
    });

    it('refuses creating a conversation with a model the group may not use', async () => {
      const m = await createModel({ group_ids: [groupA.id] });
      const refused = await t.post('/api/chat/conversations', { model_name: m.name }, memberB);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('MODEL_UNAVAILABLE');
      expect((await t.post('/api/chat/conversations', { model_name: m.name }, memberA)).status).toBe(201);
    });

    it('checks availability again when a message is sent: restricted meanwhile → refused, nothing charged', async () => {
      const m = await createModel({ group_ids: [groupA.id] });
      const conv = await createConversation(t, memberA, { model_name: m.name });
      await call('PUT', `/${m.id}/groups`, { group_ids: [groupB.id] });
      const ledgerBefore = await ledgerRows(t, memberAId);
      const usedBefore = (await t.userRow(memberAId)).credits_used;
      for (const stream of [false, true]) {
        const res = await t.post(`/api/chat/conversations/${conv.id}/messages`, { content: 'hello', stream }, memberA);
        expect(res.status, `stream ${stream}`).toBe(400);
        expect(res.body.error).toBe('MODEL_UNAVAILABLE');
      }
      expect(await ledgerRows(t, memberAId)).toEqual(ledgerBefore);
      expect((await t.userRow(memberAId)).credits_used).toBe(usedBefore);
      expect(await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute()).toEqual(
        [],
      );
      expect(fake.requests.filter((r) => r.model === m.name)).toEqual([]);
      // Allowed again: the same conversation works.
      await call('PUT', `/${m.id}/groups`, { group_ids: [groupA.id] });
      expect((await sendStreamed(t, memberA, conv.id, { content: 'allowed again' })).status).toBe(200);
    });

    it('deleting the only group of a model deactivates it (audited); a model with another group stays', async () => {
      const doomed = await createGroupAsAdmin(t, token);
      const only = await createModel({ group_ids: [doomed.id] });
      const shared = await createModel({ group_ids: [doomed.id, groupA.id] });
      const open = await createModel();
      const from = await auditHeadSeq(t);
      expect((await t.request('DELETE', `/api/admin/user-groups/${doomed.id}`, { token })).status).toBe(200);

      expect(await rowOf(only.id)).toMatchObject({ is_active: 0 });
      expect(await rowOf(shared.id)).toMatchObject({ is_active: 1 });
      expect(await rowOf(open.id)).toMatchObject({ is_active: 1 });
      expect((await call<{ group_ids: number[] }>('GET', `/${shared.id}/groups`)).body.data.group_ids).toEqual([
        groupA.id,
      ]);
      // Not open to everyone: switched off.
      expect(await chatModels(memberB)).not.toContain(only.name);
      const rows = await auditRowsAfter(t, from);
      expect(rows.map((r) => [r.action, r.target_type, r.target_id])).toEqual([
        ['group.delete', 'group', String(doomed.id)],
        ['model.update', 'model', String(only.id)],
      ]);
      expect(rows[1]?.changes).toEqual({
        before: { is_active: true, group_ids: [doomed.id] },
        after: { is_active: false, group_ids: [] },
      });
      expect(rows.every((r) => r.request_id === rows[0]?.request_id)).toBe(true);
    });

    it('applies the same rule to modules restricted to the deleted group', async () => {
      const doomed = await createGroupAsAdmin(t, token);
      const now = new Date().toISOString();
      const insertModule = async (name: string) =>
        (
          await t.db
            .insertInto('modules')
            .values({
              name,
              display_name: name,
              description: '',
              type: 'frontend',
              menu_icon: 'AppstoreOutlined',
              open_mode: 'iframe',
              module_url: 'https://example.com',
              is_active: 1,
              sort_order: 0,
              config: '{}',
              auth_mode: 'none',
              health_check_url: null,
              health_status: 'unknown',
              health_checked_at: null,
              health_latency_ms: null,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const only = await insertModule(`only-${unique()}`);
      const shared = await insertModule(`shared-${unique()}`);
      await t.db
        .insertInto('module_groups')
        .values([
          { module_id: only, group_id: doomed.id },
          { module_id: shared, group_id: doomed.id },
          { module_id: shared, group_id: groupA.id },
        ])
        .execute();
      const from = await auditHeadSeq(t);
      expect((await t.request('DELETE', `/api/admin/user-groups/${doomed.id}`, { token })).status).toBe(200);
      const active = async (id: number) =>
        (await t.db.selectFrom('modules').select('is_active').where('id', '=', id).executeTakeFirstOrThrow()).is_active;
      expect(await active(only)).toBe(0);
      expect(await active(shared)).toBe(1);
      const rows = await auditRowsAfter(t, from);
      expect(rows.map((r) => [r.action, r.target_id])).toEqual([
        ['group.delete', String(doomed.id)],
        ['module.update', String(only)],
      ]);
    });
  });

  describe('who may do what', () => {
    let groupA: { id: number };
    let visibleToA: AdminModel;
    let hiddenFromA: AdminModel;
    let openModel: AdminModel;
    let groupAdmin: string;
    beforeAll(async () => {
      groupA = await createGroupAsAdmin(t, token);
      const other = await createGroupAsAdmin(t, token);
      visibleToA = await createModel({ group_ids: [groupA.id] });
      hiddenFromA = await createModel({ group_ids: [other.id] });
      openModel = await createModel({ is_active: false });
      groupAdmin = (await adminSession(t, token, { group_id: groupA.id })).token;
    });

    it('a group administrator lists the models their group may use, without key hints', async () => {
      const res = await call<AdminModel[]>('GET', '', undefined, groupAdmin);
      expect(res.status).toBe(200);
      const ids = res.body.data.map((m) => m.id);
      expect(ids).toContain(visibleToA.id);
      expect(ids).toContain(openModel.id);
      expect(ids).not.toContain(hiddenFromA.id);
      for (const m of res.body.data) expect(m.api_key_hint).toBeNull();
      expect(res.body.data.find((m) => m.id === visibleToA.id)?.api_key_set).toBe(true);
      expect((await call('GET', `/${visibleToA.id}/groups`, undefined, groupAdmin)).status).toBe(200);
      expect((await call('GET', `/${hiddenFromA.id}/groups`, undefined, groupAdmin)).status).toBe(404);
    });

    it('a group administrator gets 403 on every write, and nothing changes', async () => {
      const from = await auditHeadSeq(t);
      const id = visibleToA.id;
      const writes: [string, 'POST' | 'PUT' | 'DELETE', string, unknown][] = [
        ['create', 'POST', '', { name: `m-${unique()}`, provider: 'openai' }],
        ['update', 'PUT', `/${id}`, { display_name: 'hijacked' }],
        ['delete', 'DELETE', `/${id}`, undefined],
        ['test', 'POST', `/${id}/test`, undefined],
        ['sort', 'PUT', '/sort-order', { sort_orders: [{ id, sort_order: 1 }] }],
        ['groups', 'PUT', `/${id}/groups`, { group_ids: [] }],
        ['discover by id', 'POST', '/discover', { model_id: id }],
        ['discover', 'POST', '/discover', { provider: 'openai_compatible', api_endpoint: fake.url }],
      ];
      for (const [label, method, url, body] of writes) {
        const res = await call(method, url, body, groupAdmin);
        expect(res.status, label).toBe(403);
        expect(res.body.error, label).toBe('FORBIDDEN');
      }
      expect(await auditRowsAfter(t, from)).toEqual([]);
      expect(await rowOf(id)).toMatchObject({ display_name: visibleToA.display_name, last_test_at: null });
    });

    it('a plain user gets 403 everywhere, reading included', async () => {
      const plain = (await t.signUp()).session.accessToken;
      expect((await call('GET', '', undefined, plain)).status).toBe(403);
      expect((await call('GET', `/${openModel.id}/groups`, undefined, plain)).status).toBe(403);
      expect((await call('POST', `/${openModel.id}/test`, undefined, plain)).status).toBe(403);
    });

    it('an administrator granted model.manage manages every model', async () => {
      const manager = (await adminSession(t, token, { group_id: groupA.id, extra_permissions: ['model.manage'] }))
        .token;
      const list = await call<AdminModel[]>('GET', '', undefined, manager);
      expect(list.body.data.map((m) => m.id)).toContain(hiddenFromA.id);
      expect(list.body.data.find((m) => m.id === hiddenFromA.id)?.api_key_hint).toBe('…abcd');
      const res = await call('PUT', `/${hiddenFromA.id}`, { display_name: 'managed' }, manager);
      expect(res.status).toBe(200);
    });
  });

  it('never lets the key out: not in any answer, audit row or log line', async () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const text of answers) expect(text).not.toContain(KEY);
    const audit = await t.db.selectFrom('audit_logs').select('changes').execute();
    expect(audit.length).toBeGreaterThan(0);
    for (const r of audit) expect(r.changes).not.toContain(KEY);
    // The capture works: requests were logged.
    expect(logs.some((l) => l.includes('/api/admin/models'))).toBe(true);
    for (const line of logs) expect(line).not.toContain(KEY);
  });
});
