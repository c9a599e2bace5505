import type { Conversation } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_OBJECTS, PARSE_CASES, WRONG_TYPES, expectErrorEnvelope } from '../../../test/bad-input.js';
import { createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

/**
 * The auth bad-input table, for the chat calls: a 4xx envelope for anything off-contract,
 * never a 5xx, and never a charge.
 */
interface Route {
  method: 'POST' | 'PUT';
  /** `:id` is replaced by a conversation of the signed-in user. */
  url: string;
  kind: 'json' | 'none' | 'multipart';
  valid?: Record<string, unknown>;
  /** Field → wrong-type names that are in fact valid for it. */
  accepts?: Record<string, string[]>;
  /** Field → values that must be refused. */
  bad?: Record<string, unknown[]>;
}

const TOO_LONG_TITLE = 'x'.repeat(201);
const NUL = 'a\u0000b';
const CONVERSATION_BAD = {
  title: [TOO_LONG_TITLE, NUL],
  model_name: ['', '   ', 'm'.repeat(201), NUL],
  system_prompt: ['p'.repeat(20_001), NUL],
  context_length: [-1, 1001, 1e12, '20'],
  ai_temperature: [-0.1, 1.01, '0.5'],
  priority: [-1, 11, 2.5],
};

const ROUTES: Route[] = [
  {
    method: 'POST',
    url: '/api/chat/conversations',
    kind: 'json',
    valid: {
      model_name: 'fake-echo',
      title: 't',
      system_prompt: 's',
      context_length: 5,
      ai_temperature: 0.5,
      priority: 1,
      is_pinned: false,
    },
    accepts: { is_pinned: ['boolean'] },
    bad: CONVERSATION_BAD,
  },
  {
    method: 'PUT',
    url: '/api/chat/conversations/:id',
    kind: 'json',
    valid: {
      title: 't',
      model_name: 'fake-echo',
      system_prompt: 's',
      context_length: 5,
      ai_temperature: 0.5,
      priority: 1,
      is_pinned: true,
    },
    accepts: { is_pinned: ['boolean'] },
    bad: { ...CONVERSATION_BAD, title: ['', TOO_LONG_TITLE, NUL] },
  },
  {
    method: 'POST',
    url: '/api/chat/conversations/:id/messages',
    kind: 'json',
    valid: { content: 'hello', file_id: null, stream: false, stream_options: { delta_only: true } },
    // An object with unknown keys is a valid (empty) stream_options: unknown fields are dropped.
    accepts: { stream: ['boolean'], file_id: ['null'], stream_options: ['object'] },
    bad: { content: ['', '  ', 'c'.repeat(100_001), NUL], file_id: ['abc', NUL] },
  },
  {
    method: 'POST',
    url: '/api/chat/conversations/:id/draft',
    kind: 'json',
    valid: { content: 'draft' },
    bad: { content: ['c'.repeat(100_001), NUL] },
  },
  { method: 'POST', url: '/api/chat/conversations/:id/clear', kind: 'none' },
  { method: 'POST', url: '/api/chat/upload-image', kind: 'multipart' },
];

describe('bad input on every chat POST/PUT', () => {
  let t: TestApp;
  let token: string;
  let conv: Conversation;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    token = (await t.signUp()).session.accessToken;
    conv = await createConversation(t, token, { title: 'untouched' });
  });
  afterAll(async () => {
    await t.close();
  });
  const at = (route: Route) => route.url.replace(':id', conv.id);

  describe.each(ROUTES)('$method $url', (route) => {
    it('answers unparsable, poisoned and oversized bodies with a 4xx envelope', async () => {
      for (const [name, payload, headers, status, code] of PARSE_CASES) {
        const res = await t.request(route.method, at(route), { payload, headers, token });
        expectErrorEnvelope(res, name);
        expect(res.status, name).toBe(status);
        expect(res.body.error, name).toBe(code);
      }
    });
  });

  describe.each(ROUTES.filter((r) => r.kind !== 'none'))('$method $url', (route) => {
    it('refuses a body that is not the expected object', async () => {
      for (const [payload, type] of NOT_OBJECTS) {
        // `{}` is a valid update (nothing to change).
        if (payload === '{}' && route.method === 'PUT') continue;
        const res = await t.request(route.method, at(route), { payload, headers: { 'content-type': type }, token });
        expectErrorEnvelope(res, payload);
        expect(res.body.error, payload).toBe(
          route.kind === 'multipart' ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED',
        );
      }
    });
  });

  describe.each(ROUTES.filter((r) => r.kind === 'json'))('$method $url', (route) => {
    const valid = route.valid ?? {};

    it('refuses a wrong type, naming the problem', async () => {
      for (const field of Object.keys(valid)) {
        for (const [name, value] of WRONG_TYPES) {
          if (route.accepts?.[field]?.includes(name)) continue;
          const res = await t.request(route.method, at(route), { body: { ...valid, [field]: value }, token });
          expectErrorEnvelope(res, `${field} as ${name}`);
          expect(res.body.error, `${field} as ${name}`).toBe('VALIDATION_FAILED');
          expect(res.body.data.errors?.length, `${field} as ${name}`).toBeGreaterThan(0);
        }
      }
    });

    it('refuses out-of-range, overlong and NUL values with a 4xx', async () => {
      for (const [field, values] of Object.entries(route.bad ?? {})) {
        for (const value of values) {
          const label = `${field} = ${JSON.stringify(value)?.slice(0, 40)}`;
          const res = await t.request(route.method, at(route), { body: { ...valid, [field]: value }, token });
          expectErrorEnvelope(res, label);
        }
      }
    });
  });

  it('refuses malformed ids in the path and bad paging in the query', async () => {
    for (const id of ['x', '123', '%00', '00000000-0000-4000-8000-00000000000g']) {
      for (const path of ['', '/messages', '/draft']) {
        expectErrorEnvelope(await t.get(`/api/chat/conversations/${id}${path}`, token), `${id}${path}`);
      }
    }
    const del = await t.request('DELETE', `/api/chat/conversations/${conv.id}/messages/not-a-uuid`, { token });
    expectErrorEnvelope(del, 'message id');
    for (const query of ['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=1.5', 'page=%00']) {
      const res = await t.get(`/api/chat/conversations?${query}`, token);
      expectErrorEnvelope(res, query);
      expect(res.body.error, query).toBe('VALIDATION_FAILED');
    }
  });

  it('stores SQL-looking text verbatim', async () => {
    const title = "'); DROP TABLE conversations; --";
    const res = await t.put<Conversation>(`/api/chat/conversations/${conv.id}`, { title }, token);
    expect(res.body.data.title).toBe(title);
    await t.put(`/api/chat/conversations/${conv.id}`, { title: 'untouched' }, token);
  });

  it('left the conversation, the messages and the credits as they were', async () => {
    const row = await t.db.selectFrom('conversations').selectAll().where('id', '=', conv.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: 'untouched', message_count: 0, context_length: 20, priority: 0 });
    const user = await t.db
      .selectFrom('users')
      .select('credits_used')
      .where('email', 'like', 'user_%')
      .executeTakeFirstOrThrow();
    expect(user.credits_used).toBe(0);
    await expectLedgerConsistent(t);
  });
});
