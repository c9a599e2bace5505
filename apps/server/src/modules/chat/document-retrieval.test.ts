import type { DocumentPlan } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addModel,
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import { contractPages, insertDocument, insertKnowledgeBase } from '../../../test/document-fixtures.js';
import type { FakeUpstream, RecordedRequest } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const FACT = 'The penalty for late delivery is four and a half percent per week of delay.';
const QUESTION = 'What penalty applies for late delivery per week?';

describe('documents by relevance, and knowledge bases on every turn', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    // A small window: half of it, 1,000 tokens, is far less than a 40-page document.
    await addModel(t, fake, { name: 'small-window', context_window: 2000, credits_per_1k_document_tokens: 5 });
  });
  afterEach(async () => {
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { token: session.accessToken, id: session.user.id };
  }
  const lastRequest = (): RecordedRequest => fake.requests.at(-1) as RecordedRequest;
  const lastUserText = (r: RecordedRequest) => {
    const m = r.messages.filter((x) => x.role === 'user').at(-1);
    return typeof m?.content === 'string' ? m.content : '';
  };
  const promptChars = (r: RecordedRequest) =>
    r.messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);

  it('sends the passages of a 40-page document that answer the question, far less than it, citing page 27', async () => {
    const u = await user();
    const pages = contractPages(40, { 27: FACT });
    const doc = await insertDocument(t.db, u.id, 'contract.pdf', pages);
    const documentChars = pages.reduce((n, p) => n + p.text.length, 0);
    const conv = await createConversation(t, u.token, { model_name: 'small-window' });

    const plan = await t.post<DocumentPlan>(
      `/api/chat/conversations/${conv.id}/document-plan`,
      { file_ids: [doc] },
      u.token,
    );
    expect(plan.body.data.mode).toBe('retrieval');
    expect(plan.body.data.document_tokens).toBeLessThanOrEqual(1000);

    const res = await sendStreamed(t, u.token, conv.id, { content: QUESTION, file_ids: [doc] });
    expect(res.status).toBe(200);
    const sent = lastRequest();
    const text = lastUserText(sent);
    expect(text).toContain(FACT);
    expect(text).toMatch(/^<passages>\n\[1\] contract\.pdf, page \d+\n/);
    expect(text).not.toContain('<document');
    expect(text.endsWith(`</passages>\n\n${QUESTION}`)).toBe(true);
    expect(promptChars(sent)).toBeLessThan(documentChars / 5);

    const citations = eventData(res.events, 'done')[0]?.citations ?? [];
    expect(citations.length).toBeGreaterThan(0);
    expect(citations[0]).toMatchObject({ file_id: doc, name: 'contract.pdf', page: 27 });
    expect(citations.every((c) => c.snippet.length > 0 && c.snippet.length <= 240)).toBe(true);

    // The price follows the passages sent: 10 for the turn and 5 per 1,000 of their tokens, rounded up.
    const chunks = await t.db
      .selectFrom('document_chunks')
      .select(['text', 'tokens'])
      .where('file_id', '=', doc)
      .execute();
    const sentChunks = chunks.filter((c) => text.includes(`\n${c.text}\n`));
    expect(sentChunks).toHaveLength(citations.length);
    const passageTokens = sentChunks.reduce((n, c) => n + c.tokens, 0);
    expect(passageTokens).toBeLessThanOrEqual(1000);
    expect(eventData(res.events, 'init')[0]?.credits_info.credits_consumed).toBe(
      10 + Math.ceil((5 * passageTokens) / 1000),
    );
  });

  it('searches a knowledge base attached to the conversation on every turn, and forgets a removed document', async () => {
    const u = await user();
    const doc = await insertDocument(t.db, u.id, 'handbook.pdf', contractPages(40, { 27: FACT }));
    const kbId = await insertKnowledgeBase(t.db, u.id, [doc], 'Contracts');
    const conv = await createConversation(t, u.token);
    await t.db
      .insertInto('conversation_knowledge_bases')
      .values({ conversation_id: conv.id, knowledge_base_id: kbId })
      .execute();

    const plan = await t.post<DocumentPlan>(`/api/chat/conversations/${conv.id}/document-plan`, {}, u.token);
    expect(plan.body.data.mode).toBe('retrieval');

    for (const turn of ['first', 'second']) {
      const res = await sendStreamed(t, u.token, conv.id, { content: `${QUESTION} (${turn})` });
      expect(lastUserText(lastRequest()), turn).toContain(FACT);
      expect(eventData(res.events, 'done')[0]?.citations?.[0], turn).toMatchObject({ file_id: doc, page: 27 });
    }

    await t.db.deleteFrom('knowledge_base_documents').where('file_id', '=', doc).execute();
    const after = await sendStreamed(t, u.token, conv.id, { content: `${QUESTION} (after)` });
    expect(lastUserText(lastRequest())).toBe(`${QUESTION} (after)`);
    expect(eventData(after.events, 'done')[0]?.citations).toBeUndefined();
    // Earlier answers keep what they were given.
    const stored = await t.db
      .selectFrom('messages')
      .select(['content', 'citations'])
      .where('conversation_id', '=', conv.id)
      .where('role', '=', 'assistant')
      .orderBy('seq')
      .execute();
    expect(stored.map((m) => m.citations !== null)).toEqual([true, true, false]);
  });

  it('searches only the knowledge bases the sender may still read', async () => {
    const u = await user();
    const owner = await user();
    const doc = await insertDocument(t.db, owner.id, 'private.pdf', contractPages(3, { 2: FACT }));
    const kbId = await insertKnowledgeBase(t.db, owner.id, [doc], 'Not yours');
    const conv = await createConversation(t, u.token);
    // Attached behind the API's back (as if the sender had lost access since): never searched.
    await t.db
      .insertInto('conversation_knowledge_bases')
      .values({ conversation_id: conv.id, knowledge_base_id: kbId })
      .execute();
    const res = await sendStreamed(t, u.token, conv.id, { content: QUESTION });
    expect(lastUserText(lastRequest())).toBe(QUESTION);
    expect(eventData(res.events, 'done')[0]?.citations).toBeUndefined();
    const plan = await t.post<DocumentPlan>(`/api/chat/conversations/${conv.id}/document-plan`, {}, u.token);
    expect(plan.body.data.mode).toBe('none');
  });
});
