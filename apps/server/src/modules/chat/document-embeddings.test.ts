import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addModel,
  createChatApp,
  createConversation,
  eventually,
  expectLedgerConsistent,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import { contractPages, insertDocument } from '../../../test/document-fixtures.js';
import type { FakeUpstream, RecordedRequest } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const FACT = 'Automobiles must be parked behind the warehouse.';
const QUESTION = 'Where may vehicles stand?';

/*
 * A chat turn over a document too large to send whole finds a passage by meaning once the
 * document's chunks are embedded: none of the question's words occur in it.
 */
describe('chat turns with document embeddings', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    await addModel(t, fake, { name: 'small-window', context_window: 2000 });
    await addModel(t, fake, { name: 'fake-embed', kind: 'embedding', credits_per_1k_document_tokens: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  const lastUserText = (): string => {
    const r = fake.requests.at(-1) as RecordedRequest;
    const m = r.messages.filter((x) => x.role === 'user').at(-1);
    return typeof m?.content === 'string' ? m.content : '';
  };

  it('sends the passage that means what the question asks only once embeddings exist', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const doc = await insertDocument(t.db, session.user.id, 'site-rules.pdf', contractPages(40, { 27: FACT }));
    const conv = await createConversation(t, token, { model_name: 'small-window' });

    expect((await sendStreamed(t, token, conv.id, { content: QUESTION, file_ids: [doc] })).status).toBe(200);
    expect(lastUserText()).not.toContain(FACT);

    await t.setSetting('knowledge', { embedding_model: 'fake-embed' });
    await eventually(async () => {
      const f = await t.db.selectFrom('files').select('embed_model').where('id', '=', doc).executeTakeFirst();
      return f?.embed_model === 'fake-embed' ? true : undefined;
    }, 20_000);
    expect((await sendStreamed(t, token, conv.id, { content: QUESTION, file_ids: [doc] })).status).toBe(200);
    expect(lastUserText()).toContain(FACT);
    expect(fake.embeddingRequests.at(-1)).toMatchObject({ model: 'fake-embed', inputs: [QUESTION] });
    await expectLedgerConsistent(t);
  });
});
