import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/chat-helpers.js';
import { insertDocument } from '../../../test/document-fixtures.js';
import { type FakeUpstream, fakeEmbedding, startFakeUpstream } from '../../../test/fake-upstream.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { SecretBox } from '../../lib/auth/secret-box.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import { applyCreditChange } from '../credits/credits-writer.js';
import { ModelsRepo } from '../models/models.repo.js';
import { ChunkSearchRepo } from './chunk-search.repo.js';
import { EMBED_RETRY_MS } from './embedding-jobs.js';
import { EmbeddingJobsRepo } from './embedding-jobs.repo.js';
import { EmbeddingModel } from './embedding-model.js';
import { Retrieval } from './retrieval.js';
import { fromEmbeddingBytes } from './vector-scoring.js';

/*
 * Documents' chunks embedded in the background by the model the setting names: batches,
 * the uploader's charge per batch, a failing upstream, a change of model, an uploader who
 * cannot pay, search by meaning, and two instances sharing the queue.
 */
describe('document embeddings', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let adminToken: string;

  const createModel = async (name: string, price: number) => {
    const body = {
      name,
      provider: 'openai_compatible',
      api_endpoint: fake.url,
      api_key: 'sk-embed',
      kind: 'embedding',
      credits_per_1k_document_tokens: price,
    };
    const res = await t.post('/api/admin/models', body, adminToken);
    expect(res.status).toBe(201);
  };
  const useModel = (name: string) => t.setSetting('knowledge', { embedding_model: name });

  /** A user holding exactly `credits`. */
  const userWith = async (credits: number) => {
    const { id } = await t.registerUser();
    const row = await t.userRow(id);
    const now = t.clock.now().toISOString();
    const amount = credits - (row.credits_quota - row.credits_used);
    if (amount !== 0) {
      const type = amount > 0 ? 'admin_add' : 'admin_deduct';
      await t.db
        .transaction()
        .execute((trx) => applyCreditChange(trx, { userId: id, type, amount, description: 'x', now }));
    }
    return id;
  };
  const balance = async (id: number) => {
    const r = await t.userRow(id);
    return r.credits_quota - r.credits_used;
  };
  const embeddingRows = (userId: number) =>
    t.db
      .selectFrom('credit_transactions')
      .select(['amount', 'balance_after'])
      .where('user_id', '=', userId)
      .where('transaction_type', '=', 'embedding')
      .orderBy('id')
      .execute();
  const chunksOf = (fileId: string) =>
    t.db
      .selectFrom('document_chunks')
      .select(['id', 'text', 'embedding', 'embedding_model'])
      .where('file_id', '=', fileId)
      .orderBy('id')
      .execute();
  const settledFor = (fileId: string, model: string) =>
    eventually(async () => {
      const f = await t.db.selectFrom('files').select('embed_model').where('id', '=', fileId).executeTakeFirst();
      return f?.embed_model === model ? true : undefined;
    }, 20_000);
  /** A document of `n` one-line passages of `tokens` tokens each. */
  const document = (userId: number, texts: readonly string[], tokens = 100) =>
    insertDocument(
      t.db,
      userId,
      `doc-${unique()}.pdf`,
      texts.map((text, i) => ({ page: i + 1, text })),
      texts.map((text, i) => ({ page: i + 1, seq: i, text, tokens })),
    );

  beforeAll(async () => {
    fake = await startFakeUpstream();
    t = await createTestApp({ config: { logLevel: 'error' } });
    adminToken = (await t.loginAsAdmin()).accessToken;
    await createModel('fake-embed', 2);
    await createModel('fake-embed-b', 1);
    await createModel('fake-embed-error', 1);
    await createModel('fake-embed-hang', 1);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('embeds every chunk in batches of 64 and charges the uploader per batch, rounded up', async () => {
    const user = await userWith(100);
    const texts = Array.from({ length: 70 }, (_, i) => `Passage ${i} of the warehouse schedule.`);
    const doc = await document(user, texts);
    await useModel('fake-embed');
    await settledFor(doc, 'fake-embed');
    const chunks = await chunksOf(doc);
    expect(chunks.every((c) => c.embedding_model === 'fake-embed')).toBe(true);
    expect(Array.from(fromEmbeddingBytes(chunks[5]!.embedding!))).toEqual(fakeEmbedding(chunks[5]!.text));
    const calls = fake.embeddingRequests.filter((r) => r.inputs.some((x) => texts.includes(x)));
    expect(calls.map((r) => r.inputs.length)).toEqual([64, 6]);
    expect(calls.every((r) => r.authorization === 'Bearer sk-embed' && r.model === 'fake-embed')).toBe(true);
    // 6,400 tokens at 2 per 1,000 is 12.8 → 13; 600 tokens is 1.2 → 2.
    expect(await embeddingRows(user)).toEqual([
      { amount: -13, balance_after: 87 },
      { amount: -2, balance_after: 85 },
    ]);
    expect(await balance(user)).toBe(85);
    expect(await t.ledgerSum(user)).toBe(85);
  });

  it('finds a passage by meaning once it is embedded, which full text alone does not', async () => {
    const user = await userWith(100);
    const texts = [
      'Automobiles must be parked behind the warehouse.',
      'Invoices are payable within thirty days of receipt.',
      'The canteen opens at noon on working days.',
    ];
    const doc = await document(user, texts, 10);
    await settledFor(doc, 'fake-embed');
    const repo = new ChunkSearchRepo(t.db);
    const box = new SecretBox(resolveAppSecret(t.config.appSecret, t.config.dataDir));
    const embedder = new EmbeddingModel(t.settings, new ModelsRepo(t.db), box);
    const input = { fileIds: [doc], knowledgeBaseIds: [], query: 'vehicles', limit: 3 };
    expect(await new Retrieval(repo).search(input)).toEqual([]);
    const found = await new Retrieval(repo, embedder).search(input);
    expect(found[0]?.text).toBe(texts[0]);
    // The question was embedded by the same model, with its key.
    expect(fake.embeddingRequests.at(-1)).toMatchObject({ model: 'fake-embed', inputs: ['vehicles'] });
  });

  it('skips the document of an uploader who cannot pay, without charging', async () => {
    const user = await userWith(0);
    const doc = await document(user, ['A passage nobody pays for.']);
    await settledFor(doc, 'fake-embed');
    expect((await chunksOf(doc)).map((c) => c.embedding)).toEqual([null]);
    expect(await embeddingRows(user)).toEqual([]);
    expect(fake.embeddingRequests.some((r) => r.inputs.includes('A passage nobody pays for.'))).toBe(false);
  });

  it('embeds without charging while the site has credits switched off, as a chat turn is not charged', async () => {
    await t.setSetting('credits', { enabled: false });
    try {
      const user = await userWith(0);
      const doc = await document(user, ['A passage embedded for free.']);
      await settledFor(doc, 'fake-embed');
      expect((await chunksOf(doc)).every((c) => c.embedding !== null)).toBe(true);
      expect(await embeddingRows(user)).toEqual([]);
      expect(await balance(user)).toBe(0);
    } finally {
      await t.setSetting('credits', { enabled: true });
    }
  });

  it('charges nothing and stores nothing when the upstream fails, then re-embeds for a new model', async () => {
    const user = await userWith(50);
    const doc = await document(user, ['Refunds are paid within ten days.', 'Fees are listed in the annex.']);
    await settledFor(doc, 'fake-embed');
    const before = await embeddingRows(user);
    expect(before).toEqual([{ amount: -1, balance_after: 49 }]);

    await useModel('fake-embed-error');
    await eventually(async () =>
      fake.embeddingRequests.some((r) => r.model === 'fake-embed-error') ? true : undefined,
    );
    // Released with a pause before anyone tries again; nothing stored or charged.
    const released = await eventually(async () => {
      const f = await t.db.selectFrom('files').selectAll().where('id', '=', doc).executeTakeFirstOrThrow();
      return f.embed_owner === null && f.embed_lease_until !== null ? f : undefined;
    }, 20_000);
    expect(released.embed_model).toBe('fake-embed');
    expect((await chunksOf(doc)).map((c) => c.embedding_model)).toEqual(['fake-embed', 'fake-embed']);
    expect(await embeddingRows(user)).toEqual(before);
    expect(await balance(user)).toBe(49);

    await useModel('fake-embed-b');
    t.clock.advance(EMBED_RETRY_MS + 1_000);
    await settledFor(doc, 'fake-embed-b');
    const chunks = await chunksOf(doc);
    expect(chunks.map((c) => c.embedding_model)).toEqual(['fake-embed-b', 'fake-embed-b']);
    expect(await embeddingRows(user)).toEqual([...before, { amount: -1, balance_after: 48 }]);
    expect(await t.ledgerSum(user)).toBe(48);
  });

  it('two instances on one database embed and charge every chunk once', async () => {
    await useModel('fake-embed');
    const other = await t.sibling();
    try {
      const user = await userWith(1000);
      const docs: string[] = [];
      const texts: string[] = [];
      for (let d = 0; d < 8; d++) {
        const mine = [0, 1, 2].map((i) => `Shared queue document ${d} passage ${i}.`);
        texts.push(...mine);
        docs.push(await document(user, mine));
      }
      for (const doc of docs) await settledFor(doc, 'fake-embed');
      const sent = fake.embeddingRequests.filter((r) => r.model === 'fake-embed').flatMap((r) => r.inputs);
      expect(sent.filter((x) => texts.includes(x)).sort()).toEqual([...texts].sort());
      // One batch per document: 300 tokens at 2 per 1,000 is 0.6 → 1.
      expect((await embeddingRows(user)).map((r) => r.amount)).toEqual(Array(8).fill(-1));
      expect(await balance(user)).toBe(992);
    } finally {
      await other.app.close();
    }
  });

  it("stores and charges a batch only while the lease is the storing instance's own", async () => {
    const user = await userWith(10);
    const doc = await document(user, ['A passage two instances both want.']);
    const repo = new EmbeddingJobsRepo(t.db);
    const now = t.clock.now().toISOString();
    // Held by an instance that has gone quiet: another one's store is refused, nothing charged.
    await t.db
      .updateTable('files')
      .set({ embed_owner: 'gone', embed_lease_until: now })
      .where('id', '=', doc)
      .execute();
    const claim = { id: doc, userId: user, name: 'x.pdf' };
    const [chunk] = await repo.pending(doc, 'fake-embed', 64);
    const batch = { model: 'fake-embed', chunks: [chunk!], vectors: [[1, 0]], cost: 1 };
    expect(await repo.store('not-the-owner', claim, batch, now, now)).toBe('lost');
    expect(await embeddingRows(user)).toEqual([]);
    expect((await chunksOf(doc))[0]?.embedding).toBeNull();
    await settledFor(doc, 'fake-embed');
    expect((await embeddingRows(user)).map((r) => r.amount)).toEqual([-1]);
  });

  it('an instance closing while a call hangs gives the document back at once, uncharged', async () => {
    const other = await t.sibling();
    const user = await userWith(10);
    await useModel('fake-embed-hang');
    const doc = await document(user, ['A passage embedded by a model that never answers.']);
    await eventually(
      async () => (fake.embeddingRequests.some((r) => r.model === 'fake-embed-hang') ? true : undefined),
      20_000,
    );
    // No model from now on, so nothing takes the document again once it is given back.
    await useModel('');
    await other.app.close();
    await t.reopen();
    const f = await t.db.selectFrom('files').selectAll().where('id', '=', doc).executeTakeFirstOrThrow();
    expect(f).toMatchObject({ embed_owner: null, embed_lease_until: null });
    expect(await embeddingRows(user)).toEqual([]);
  });
});
