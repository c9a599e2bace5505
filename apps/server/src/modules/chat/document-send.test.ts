import crypto from 'node:crypto';
import type { DocumentPlan, Message, NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRows } from '../../../test/admin-helpers.js';
import {
  addModel,
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import { insertDocument } from '../../../test/chat-documents.js';
import { insertKnowledgeBase } from '../../../test/document-fixtures.js';
import type { FakeUpstream, RecordedRequest } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { pngOf, uploadImage } from '../../../test/upload-helpers.js';
import { MessageFilesRepo } from './message-files.repo.js';

const NOTE = 'The launch code word is papaya. It changes every spring.';

describe('documents in a chat turn', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    // 10 credits a turn, 7 more per 1,000 document tokens.
    await addModel(t, fake, { name: 'doc-priced', credits_per_1k_document_tokens: 7 });
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
  const sendUrl = (id: string) => `/api/chat/conversations/${id}/messages`;
  const lastRequest = (): RecordedRequest => fake.requests.at(-1) as RecordedRequest;
  const userTexts = (r: RecordedRequest) =>
    r.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : ''));

  it('sends a small document whole inside its question, cites it without a page, and shows it as a document', async () => {
    const u = await user();
    const doc = await insertDocument(t, u.id, { name: 'notes.txt', pages: [NOTE] });
    const conv = await createConversation(t, u.token);

    const res = await sendStreamed(t, u.token, conv.id, { content: 'What is the code word?', file_ids: [doc] });
    expect(res.status).toBe(200);
    expect(userTexts(lastRequest()).at(-1)).toBe(
      `<document name="notes.txt" pages="1">\n${NOTE}\n</document>\n\nWhat is the code word?`,
    );
    const citation = { file_id: doc, name: 'notes.txt', page: null, snippet: NOTE };
    expect(eventData(res.events, 'done')[0]?.citations).toEqual([citation]);
    const init = eventData(res.events, 'init')[0];
    expect(init?.user_message.files).toEqual([
      { id: doc, url: `/api/chat/files/${doc}`, original_name: 'notes.txt', kind: 'document' },
    ]);

    const listed = (await t.get<Message[]>(`/api/chat/conversations/${conv.id}/messages`, u.token)).body.data;
    expect(listed.map((m) => m.files.map((f) => f.kind))).toEqual([['document'], []]);
    expect(listed[1]?.citations).toEqual([citation]);
    expect(listed[0]?.content).toBe('What is the code word?');

    // Without a stream, the answer carries them too.
    const whole = await t.post<NonStreamAnswer>(sendUrl(conv.id), { content: 'And again?', stream: false }, u.token);
    expect(whole.status).toBe(200);
    expect(whole.body.data.assistant_message.citations).toEqual([citation]);
    expect(whole.body.data.user_message.citations).toBeUndefined();
  });

  it('keeps the prompt’s prefix byte for byte from one turn to the next', async () => {
    const u = await user();
    const a = await insertDocument(t, u.id, { name: 'a "quoted" <name>.md', pages: ['Alpha facts.'] });
    const b = await insertDocument(t, u.id, { name: 'b.pdf', pages: ['Page one of b.', 'Page two of b.'] });
    const conv = await createConversation(t, u.token, { system_prompt: 'Be brief.' });

    await sendStreamed(t, u.token, conv.id, { content: 'first', file_ids: [a] });
    const first = lastRequest();
    await sendStreamed(t, u.token, conv.id, { content: 'second', file_ids: [b] });
    const second = lastRequest();
    await sendStreamed(t, u.token, conv.id, { content: 'third' });
    const third = lastRequest();

    expect(JSON.stringify(second.messages.slice(0, first.messages.length))).toBe(JSON.stringify(first.messages));
    expect(JSON.stringify(third.messages.slice(0, second.messages.length))).toBe(JSON.stringify(second.messages));
    expect(userTexts(first)[0]).toBe(
      '<document name="a &quot;quoted&quot; &lt;name&gt;.md" pages="1">\nAlpha facts.\n</document>\n\nfirst',
    );
    expect(userTexts(second)[1]).toBe(
      '<document name="b.pdf" pages="2">\n[page 1]\nPage one of b.\n\n[page 2]\nPage two of b.\n</document>\n\nsecond',
    );
    // The last question carries no document of its own: the earlier ones stay where they were.
    expect(userTexts(third)[2]).toBe('third');
  });

  it('refuses documents not ready, failed, someone else’s, or too many — before charging', async () => {
    const u = await user();
    const stranger = await user();
    const conv = await createConversation(t, u.token);
    const processing = await insertDocument(t, u.id, { name: 'big.pdf', pages: ['x'], status: 'processing' });
    const failed = await insertDocument(t, u.id, {
      name: 'locked.pdf',
      pages: ['x'],
      status: 'failed',
      errorCode: 'FILE_ENCRYPTED',
    });
    const theirs = await insertDocument(t, stranger.id, { name: 'theirs.txt', pages: ['secret'] });
    const requests = fake.requests.length;
    const before = await ledgerRows(t, u.id);

    const notReady = await t.post(sendUrl(conv.id), { content: 'q', stream: false, file_ids: [processing] }, u.token);
    expect(notReady.status).toBe(409);
    expect(notReady.body.error).toBe('FILE_NOT_READY');
    const broken = await t.post(sendUrl(conv.id), { content: 'q', stream: true, file_ids: [failed] }, u.token);
    expect(broken.status).toBe(422);
    expect(broken.body.error).toBe('FILE_ENCRYPTED');
    const foreign = await t.post(sendUrl(conv.id), { content: 'q', stream: false, file_ids: [theirs] }, u.token);
    expect(foreign.status).toBe(404);
    const plan = await t.post(`/api/chat/conversations/${conv.id}/document-plan`, { file_ids: [theirs] }, u.token);
    expect(plan.status).toBe(404);
    const missing = await t.post(
      sendUrl(conv.id),
      { content: 'q', stream: false, file_ids: [crypto.randomUUID()] },
      u.token,
    );
    expect(missing.status).toBe(404);

    const eleven = [];
    for (let i = 0; i < 11; i++) eleven.push(await insertDocument(t, u.id, { name: `d${i}.txt`, pages: [`d${i}`] }));
    const tooMany = await t.post(sendUrl(conv.id), { content: 'q', stream: false, file_ids: eleven }, u.token, 'en-US');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.errors).toContain('A message can carry at most 4 images and 10 documents');

    expect(await ledgerRows(t, u.id)).toEqual(before);
    expect(fake.requests.length).toBe(requests);
    const stored = await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute();
    expect(stored).toEqual([]);
  });

  it('takes ten documents and four images together, the documents without an image model', async () => {
    const u = await user();
    const docs = [];
    for (let i = 0; i < 10; i++) docs.push(await insertDocument(t, u.id, { name: `n${i}.txt`, pages: [`note ${i}`] }));
    const text = await createConversation(t, u.token);
    const onText = await t.post<NonStreamAnswer>(
      sendUrl(text.id),
      { content: 'q', stream: false, file_ids: docs },
      u.token,
    );
    expect(onText.status).toBe(200);
    expect(onText.body.data.assistant_message.citations?.map((c) => c.file_id)).toEqual(docs);

    const images = [];
    for (let i = 0; i < 4; i++) images.push((await uploadImage(t, u.token, pngOf(100 + i))).body.data.id);
    const vision = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const both = await t.post<NonStreamAnswer>(
      sendUrl(vision.id),
      { content: 'q', stream: false, file_ids: [...images, ...docs] },
      u.token,
    );
    expect(both.status).toBe(200);
    expect(both.body.data.user_message.files.map((f) => f.kind)).toEqual([
      ...images.map(() => 'image'),
      ...docs.map(() => 'document'),
    ]);
  });

  it('charges the document tokens at the model’s price, exactly, and refunds them with the turn', async () => {
    const u = await user();
    // 1,500 document tokens at 7 credits per 1,000: 10.5, rounded up to 11, plus 10 for the turn.
    const doc = await insertDocument(t, u.id, { name: 'priced.txt', pages: ['Priced text.'], tokens: 1500 });
    const conv = await createConversation(t, u.token, { model_name: 'doc-priced' });

    const plan = await t.post<DocumentPlan>(
      `/api/chat/conversations/${conv.id}/document-plan`,
      { file_ids: [doc] },
      u.token,
    );
    expect(plan.status).toBe(200);
    expect(plan.body.data).toEqual({ mode: 'full', document_tokens: 1500, credits: 21 });
    const nothing = await t.post<DocumentPlan>(`/api/chat/conversations/${conv.id}/document-plan`, {}, u.token);
    expect(nothing.body.data).toEqual({ mode: 'none', document_tokens: 0, credits: 10 });

    const ok = await t.post<NonStreamAnswer>(
      sendUrl(conv.id),
      { content: 'q', stream: false, file_ids: [doc] },
      u.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.credits_info.credits_consumed).toBe(21);
    expect((await ledgerRows(t, u.id)).at(-1)).toMatchObject({ transaction_type: 'chat_consume', amount: -21 });

    // The next turn sends the document again (it is in the branch's history): charged again.
    const failing = await sendStreamed(t, u.token, conv.id, { content: '[fake:error] again' });
    expect(eventData(failing.events, 'error')[0]?.error).toBe('UPSTREAM_ERROR');
    const rows = (await ledgerRows(t, u.id)).slice(-2);
    expect(rows.map((r) => [r.transaction_type, r.amount])).toEqual([
      ['chat_consume', -21],
      ['system_refund', 21],
    ]);
    const row = await t.userRow(u.id);
    expect(row.credits_used).toBe(21);

    // Credits switched off: nothing is charged, documents or not.
    await t.setSetting('credits', { enabled: false });
    try {
      const free = await t.post<DocumentPlan>(
        `/api/chat/conversations/${conv.id}/document-plan`,
        { file_ids: [doc] },
        u.token,
      );
      expect(free.body.data).toEqual({ mode: 'full', document_tokens: 1500, credits: 0 });
    } finally {
      await t.setSetting('credits', { enabled: true });
    }
  });

  it('answers a question with a document again with the document, and keeps a document a knowledge base holds', async () => {
    const u = await user();
    const doc = await insertDocument(t, u.id, { name: 'kept.txt', pages: [NOTE] });
    const conv = await createConversation(t, u.token);
    const first = await t.post<NonStreamAnswer>(
      sendUrl(conv.id),
      { content: 'q', stream: false, file_ids: [doc] },
      u.token,
    );
    const questionId = first.body.data.user_message.id;

    const again = await t.post<NonStreamAnswer>(
      `${sendUrl(conv.id)}/${questionId}/regenerate`,
      { stream: false },
      u.token,
    );
    expect(again.status).toBe(200);
    expect(userTexts(lastRequest()).at(-1)).toBe(`<document name="kept.txt" pages="1">\n${NOTE}\n</document>\n\nq`);
    expect(again.body.data.assistant_message.citations?.map((c) => c.file_id)).toEqual([doc]);

    await insertKnowledgeBase(t.db, u.id, [doc], 'kb');
    expect((await t.request('DELETE', `/api/chat/conversations/${conv.id}`, { token: u.token })).status).toBe(200);
    const files = new MessageFilesRepo(t.db);
    const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect((await files.releaseStale(later, 1000)).map((f) => f.id)).not.toContain(doc);
    expect(await t.db.selectFrom('files').select('id').where('id', '=', doc).executeTakeFirst()).toBeDefined();

    // Out of the knowledge base and in no message: an unused upload like any other.
    await t.db.deleteFrom('knowledge_base_documents').where('file_id', '=', doc).execute();
    expect((await files.releaseStale(later, 1000)).map((f) => f.id)).toContain(doc);
  });
});
