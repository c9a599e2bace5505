import { ConversationSchema, SessionDataSchema } from '@aiplatform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { sessionAbilities } from '../../policies/abilities.js';
import { successEnvelope } from './openapi.js';
import { responseSerializer } from './response-serializer.js';

/** What fastify hands the compiler for a route's 200 answer. */
const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/test', httpStatus: '200' });
/** The reference: zod's encode then JSON.stringify, as the zod serializer writes it. */
const viaZod = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data));

const ListEnvelope = successEnvelope(z.array(ConversationSchema)).extend({
  pagination: z.object({
    page: z.number(),
    limit: z.number(),
    total: z.number(),
    totalPages: z.number(),
    hasNext: z.boolean(),
    hasPrev: z.boolean(),
  }),
});

const conversation = (i: number) => ({
  id: `0b9c3c1e-5d4a-4f6e-9a51-${String(i).padStart(12, '0')}`,
  // Quotes, backslashes, control and line-separator characters, emoji and CJK must be escaped alike.
  title: i === 0 ? '' : `"引用" \\ back\nline\u2028sep\t😀 #${i}`,
  model_name: 'gpt-4.1-mini',
  system_prompt: i % 2 ? 'Be brief.' : '',
  is_pinned: i % 3 === 0,
  context_length: 20,
  ai_temperature: i % 2 ? 0.7 : 1,
  priority: -i,
  message_count: i * 2,
  total_tokens: 1234567 * i,
  last_message_at: i % 2 ? null : '2026-01-02T03:04:05.678Z',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T03:04:05.678Z',
  // Columns the schema does not name: dropped by both.
  user_id: 7,
});

const listPayload = {
  success: true,
  code: 200,
  message: '操作成功',
  data: Array.from({ length: 25 }, (_, i) => conversation(i)),
  pagination: { page: 1, limit: 100, total: 25, totalPages: 1, hasNext: false, hasPrev: false, extra: 1 },
  timestamp: '2026-01-02T03:04:05.678Z',
  extra: 'not in the schema',
};

const sessionPayload = (group: { group_id: number | null; group_name: string | null }) => ({
  success: true,
  code: 200,
  message: 'Success',
  data: {
    user: {
      id: 3,
      username: 'ann',
      email: 'ann@example.com',
      phone: null,
      role: 'user',
      status: 'active',
      ...group,
      group_color: null,
      avatar_url: '/api/auth/avatar/3?v=2',
      created_at: '2026-01-01T00:00:00.000Z',
      last_login_at: null,
      token_quota: 1000,
      token_used: 12.5,
      credits_stats: {
        quota: 1000,
        used: 12.5,
        remaining: 987.5,
        usageRate: 1.25,
        isExpired: false,
        expireAt: null,
        remainingDays: null,
      },
      password_hash: 'must never be written',
    },
    permissions: ['chat.use', 'stats.view'],
    abilities: sessionAbilities({ id: 3, username: 'ann', role: 'user', group_id: null, permissions: ['chat.use'] }),
    siteConfig: { name: 'AI', logo: '', description: 'd', favicon: '', is_group_config: false },
  },
  timestamp: '2026-01-02T03:04:05.678Z',
});

describe('response serializer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes the conversation page exactly as zod does, without running zod', () => {
    const serialize = responseSerializer(route(ListEnvelope));
    expect(serialize.kind).toBe('compiled');
    const run = vi.spyOn(ConversationSchema._zod, 'run');
    const out = serialize(listPayload);
    expect(run).not.toHaveBeenCalled();
    expect(out).toBe(viaZod(ListEnvelope, listPayload));
    expect(JSON.parse(out)).not.toHaveProperty('extra');
    expect((JSON.parse(out) as { data: object[] }).data[1]).not.toHaveProperty('user_id');
  });

  it('writes the signed-in user exactly as zod does, unknown fields dropped', () => {
    const schema = successEnvelope(SessionDataSchema);
    const serialize = responseSerializer(route(schema));
    expect(serialize.kind).toBe('compiled');
    for (const group of [
      { group_id: null, group_name: null },
      { group_id: 2, group_name: 'Team' },
    ]) {
      const out = serialize(sessionPayload(group));
      expect(out).toBe(viaZod(schema, sessionPayload(group)));
      expect(out).not.toContain('password_hash');
    }
  });

  it('writes optional, nullable, literal, record and unknown fields as zod does', () => {
    const schema = z.object({
      kind: z.literal('note'),
      note: z.string().optional(),
      tag: z.enum(['a', 'b']).nullable(),
      child: z.object({ n: z.number().int() }).nullable(),
      list: z.array(z.object({ x: z.boolean() }).nullable()),
      counts: z.record(z.string(), z.number()),
      anything: z.unknown(),
    });
    const serialize = responseSerializer(route(schema));
    expect(serialize.kind).toBe('compiled');
    for (const value of [
      {
        kind: 'note',
        tag: 'a',
        note: 'n',
        child: { n: 3, y: 1 },
        list: [{ x: true }, null],
        counts: { a: 1 },
        anything: { deep: [1, 'x'] },
      },
      { kind: 'note', tag: null, child: null, list: [], counts: {}, anything: null },
      { kind: 'note', tag: 'b', note: undefined, child: null, list: [], counts: {}, anything: 'text' },
    ]) {
      expect(serialize(value)).toBe(viaZod(schema, value));
    }
  });

  it('leaves schemas that change or check values to zod', () => {
    const cases: [z.ZodType, unknown][] = [
      [z.object({ at: z.date() }), { at: new Date('2026-01-01T00:00:00Z') }],
      [z.object({ name: z.string().trim() }), { name: '  padded  ' }],
      [z.object({ n: z.number().default(5) }), { n: 1 }],
      [z.object({ v: z.union([z.string(), z.number()]) }), { v: 2 }],
      [z.strictObject({ a: z.string() }), { a: 'x' }],
      [z.object({ at: z.iso.datetime().pipe(z.string()) }), { at: '2026-01-01T00:00:00Z' }],
    ];
    for (const [schema, value] of cases) {
      const serialize = responseSerializer(route(schema));
      expect(serialize.kind).toBe('zod');
      expect(serialize(value)).toBe(JSON.stringify(z.encode(schema, value)));
    }
  });

  it('a value the compiled code cannot write fails as zod fails it', () => {
    const serialize = responseSerializer(route(z.object({ id: z.string(), n: z.number() })));
    expect(serialize.kind).toBe('compiled');
    expect(() => serialize({ n: 1 })).toThrow(/Response doesn't match the schema/);
  });
});
