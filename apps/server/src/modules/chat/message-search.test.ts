import type { Conversation, MessageSearchResult, NonStreamAnswer } from '@aiplatform/contracts';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { fillMessageSearch } from '../../db/migrations/0010-message-search.js';

const BASE = '/api/chat/conversations';
type Hit = MessageSearchResult['items'][number];

/** The marked parts of a hit's snippet. */
const marked = (h: Hit) => h.highlights.map(([a, b]) => h.snippet.slice(a, b));

describe('message search', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let otherId: number;
  let english: Conversation;
  let chinese: Conversation;

  const send = async (conversationId: string, content: string, auth = token) => {
    const res = await t.post<NonStreamAnswer>(`${BASE}/${conversationId}/messages`, { content, stream: false }, auth);
    if (res.status !== 200) throw new Error(`send: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const searchUrl = (q: string, extra = '') => `/api/chat/search?q=${encodeURIComponent(q)}${extra}`;
  const search = (q: string, auth = token, extra = '') =>
    t.request<MessageSearchResult>('GET', searchUrl(q, extra), { token: auth });
  const refused = (q: string, lang: string) => t.request('GET', searchUrl(q), { token, lang });
  const hitsFor = async (q: string, auth = token) => {
    const res = await search(q, auth);
    expect(res.status, res.text).toBe(200);
    return res.body.data.items;
  };

  /** The `seq` of every index entry, and of every message with text: they must be the same set. */
  const indexedSeqs = async () => {
    const q =
      t.dialect === 'postgres'
        ? sql<{ seq: number }>`select seq from message_search order by seq`
        : sql<{ seq: number }>`select rowid as seq from message_search order by rowid`;
    return (await q.execute(t.db)).rows.map((r) => Number(r.seq));
  };
  const messageSeqs = async () =>
    (await t.db.selectFrom('messages').select('seq').where('content', '!=', '').orderBy('seq').execute()).map((r) =>
      Number(r.seq),
    );

  beforeAll(async () => {
    ({ t } = await createChatApp());
    token = (await t.signUp()).session.accessToken;
    const other = await t.signUp();
    otherToken = other.session.accessToken;
    otherId = other.creds.id;
    english = await createConversation(t, token, { title: 'Database tooling' });
    await send(english.id, 'How do **Kysely** migrations work with the migration table?');
    chinese = await createConversation(t, token, { title: '性能' });
    await send(chinese.id, '我们的数据库很快吗？');
    // Another user writes the same words: never part of the first user's results.
    const theirs = await createConversation(t, otherToken, { title: 'Secret plans' });
    await send(theirs.id, 'Kysely migration of 数据库 for owner u1', otherToken);
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds English words anywhere in a message, newest first, with the words marked', async () => {
    const hits = await hitsFor('kysely MIGRATION');
    expect(hits.map((h) => [h.conversation_id, h.role])).toEqual([
      [english.id, 'assistant'],
      [english.id, 'user'],
    ]);
    const question = hits[1] as Hit;
    expect(question).toMatchObject({
      conversation_title: 'Database tooling',
      model_name: 'fake-echo',
      // Markdown marks are dropped from the plain-text snippet.
      snippet: 'How do Kysely migrations work with the migration table?',
    });
    expect(question.message_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(question.created_at)).not.toBeNaN();
    // The last word also matches as the beginning of a longer word.
    expect(marked(question)).toEqual(['Kysely', 'migrations', 'migration']);
    expect((await hitsFor('kysely nosuchword')).length).toBe(0);
  });

  it('finds the text of answers once they are finished', async () => {
    // "formula" is only in the fake model's answers, never in a question.
    const hits = await hitsFor('formula');
    expect(hits.map((h) => h.role)).toEqual(['assistant', 'assistant']);
    expect(hits.map((h) => h.conversation_id)).toEqual([chinese.id, english.id]);
    for (const h of hits) expect(marked(h)).toEqual(['formula']);
  });

  it('finds a question whose answer never came, once the turn is refunded', async () => {
    const failing = await createConversation(t, token, { model_name: 'fake-error' });
    const res = await t.post(
      `${BASE}/${failing.id}/messages`,
      { content: 'Unanswerable zeppelin question', stream: false },
      token,
    );
    expect(res.status).toBe(502);
    const hits = await hitsFor('zeppelin');
    expect(hits.map((h) => [h.role, h.conversation_id])).toEqual([['user', failing.id]]);
    expect(await indexedSeqs()).toEqual(await messageSeqs());
  });

  it('finds Chinese by any run of characters inside a longer text', async () => {
    for (const q of ['数据库', '据库很', '我们']) {
      const hits = await hitsFor(q);
      expect(hits.map((h) => h.conversation_id)).toEqual([chinese.id, chinese.id]);
      for (const h of hits) expect(marked(h)).toEqual([q]);
    }
    // Characters must be next to each other, in order.
    expect(await hitsFor('数库')).toEqual([]);
    expect(await hitsFor('库据数')).toEqual([]);
  });

  it("never returns another user's messages, whatever the query", async () => {
    for (const q of ['kysely migration', '数据库', `owner u${otherId}`, `{owner} : "u${otherId}"`, 'secret plans']) {
      const hits = await hitsFor(q);
      expect(hits.every((h) => h.conversation_id === english.id || h.conversation_id === chinese.id)).toBe(true);
    }
    // While the owner finds them.
    expect((await hitsFor('数据库 kysely', otherToken)).length).toBe(2);
  });

  it('answers hostile queries with 200 and empty queries with a translated 400', async () => {
    const hostile = [
      'a" OR b',
      '*',
      'NEAR(',
      'NEAR(a b, 2)',
      '"',
      '""',
      "'",
      "' or 1=1 --",
      '\\',
      ') OR (',
      'body: x',
      '{owner body} : x',
      '-x',
      '^kysely',
      'kysely:*',
      'a & | ! <-> b',
      '%_',
      'AND',
      'NOT kysely',
      '数据库"*',
    ];
    for (const q of hostile) {
      const res = await search(q);
      expect(res.status, `${q}: ${res.text}`).toBe(200);
      expect(Array.isArray(res.body.data.items)).toBe(true);
    }
    expect((await hitsFor('"kysely"')).length).toBe(2);

    for (const q of ['', '   ']) {
      const res = await refused(q, 'en-US');
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual(['Enter something to search for']);
    }
    const missing = await t.request('GET', '/api/chat/search', { token, lang: 'zh-CN' });
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors).toEqual(['请输入要搜索的内容']);
    const long = await refused('x'.repeat(101), 'en-US');
    expect(long.status).toBe(400);
    expect(long.body.data.errors).toEqual(['A search can be at most 100 characters']);
    // Trimmed before the length check.
    expect((await search(`  ${'x'.repeat(100)}  `)).status).toBe(200);
    expect((await t.request('GET', '/api/chat/search?q=kysely')).status).toBe(401);
  });

  it('returns 20 hits by default and clamps a larger limit to 50', async () => {
    const conv = await createConversation(t, token, { title: 'Many' });
    for (let i = 0; i < 26; i++) await send(conv.id, `pineapple number ${i}`);
    // 26 questions and 26 answers mention the word.
    expect((await hitsFor('pineapple')).length).toBe(20);
    const clamped = await search('pineapple', token, '&limit=1000');
    expect(clamped.status).toBe(200);
    expect(clamped.body.data.items.length).toBe(50);
    const three = await search('pineapple', token, '&limit=3');
    expect(three.body.data.items.map((h) => h.snippet)).toEqual([
      expect.stringContaining('Echo: pineapple number 25'),
      'pineapple number 25',
      expect.stringContaining('Echo: pineapple number 24'),
    ]);
    expect((await search('pineapple', token, '&limit=0')).status).toBe(400);
  });

  it('cuts a long message around the hit and marks it there', async () => {
    const conv = await createConversation(t, token);
    const filler = 'The quick brown fox jumps over the lazy dog. '.repeat(12);
    await send(conv.id, `${filler}Remember the kumquat harvest.${filler}`);
    const [answer, question] = await hitsFor('KUMQUAT harvest');
    for (const h of [answer, question] as Hit[]) {
      expect(h.snippet.length).toBeLessThanOrEqual(160);
      expect(h.snippet.startsWith('…') && h.snippet.endsWith('…')).toBe(true);
      expect(marked(h)).toEqual(['kumquat', 'harvest']);
    }
  });

  it('forgets deleted messages and conversations', async () => {
    const conv = await createConversation(t, token);
    const first = await send(conv.id, 'the zucchini question');
    await send(conv.id, 'the zucchini follow-up');
    expect((await hitsFor('zucchini')).length).toBe(4);

    const del = await t.request('DELETE', `${BASE}/${conv.id}/messages/${first.assistant_message.id}`, { token });
    expect(del.status).toBe(200);
    expect((await hitsFor('zucchini')).map((h) => h.snippet)).toEqual([
      expect.stringContaining('Echo: the zucchini follow-up'),
      'the zucchini follow-up',
    ]);
    expect(await indexedSeqs()).toEqual(await messageSeqs());

    expect((await t.request('DELETE', `${BASE}/${conv.id}`, { token })).status).toBe(200);
    expect(await hitsFor('zucchini')).toEqual([]);
    expect(await indexedSeqs()).toEqual(await messageSeqs());
  });

  it('is described in the OpenAPI document', async () => {
    const res = await t.request('GET', '/api/docs/json');
    const doc = JSON.parse(res.text) as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> };
    expect(doc.paths['/api/chat/search']?.get?.parameters?.map((p) => p.name).sort()).toEqual(['limit', 'q']);
  });

  it('fills the index from existing messages (the migration)', async () => {
    await sql`delete from message_search`.execute(t.db);
    expect(await hitsFor('数据库')).toEqual([]);
    await fillMessageSearch(t.db as unknown as Kysely<unknown>);
    expect((await hitsFor('数据库')).length).toBe(2);
    expect((await hitsFor('kysely migration')).length).toBe(2);
    expect(await indexedSeqs()).toEqual(await messageSeqs());
  });
});
