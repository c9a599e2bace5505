import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { buildConfig } from '../../apps/server/src/config.js';
import { ChunkSearchRepo } from '../../apps/server/src/modules/documents/chunk-search.repo.js';
import { type DocumentChunk, DocumentIndexRepo } from '../../apps/server/src/modules/documents/document-index.repo.js';
import { Retrieval } from '../../apps/server/src/modules/documents/retrieval.js';
import { median, ms, percentile, type Row, verdict } from './stats.js';

/*
 * Retrieval over 100,000 chunks. A new SQLite database is migrated (the server built once in
 * this process), then documents are written through the index's one writer
 * (DocumentIndexRepo.replace): made-up text whose words follow a Zipf-like law, as real text
 * does (a few words in every passage, most in few), with common English words and Chinese
 * sentences mixed in. Questions: English sentences of words of middling frequency with the
 * usual small words around them, and Chinese ones about six characters of some passage. Timed: Retrieval.search itself, sequential,
 * (a) over one knowledge base holding every document, (b) over three documents among them
 * all. The data dir is removed at the end.
 */

export interface RetrievalBenchOptions {
  /**
   * A PostgreSQL server (any database on it): the corpus goes into a new database of its own
   * there, dropped at the end. Without it, a SQLite database in a temporary data dir.
   */
  postgresUrl?: string;
  chunks: number;
  chunksPerDocument: number;
  samples: number;
  warmup: number;
}

const BUDGET_MS = 50;
const ENGLISH = 'the of and to in is for that with on as by at from this be or are it an which was not'.split(' ');
const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研'.split(
    '',
  );

/** A made-up word for each rank: two to four syllables. */
function wordOf(rank: number): string {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'si', 'po', 've', 'du', 'ga', 'fe', 'ho', 'ji', 'xu', 'zo'];
  let n = rank + 16;
  let word = '';
  while (n > 0) {
    word += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  }
  return word;
}

export function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const VOCABULARY = 50_000;

/** A passage of about 220 words (some 300 tokens) and a Chinese sentence. */
function passage(next: () => number, chinese: string[]): string {
  const words: string[] = [];
  for (let i = 0; i < 220; i++) {
    words.push(
      next() < 0.35 ? ENGLISH[Math.floor(next() * ENGLISH.length)]! : wordOf(Math.floor(VOCABULARY * next() ** 3)),
    );
  }
  let han = '';
  for (let i = 0; i < 24; i++) han += HAN[Math.floor(HAN.length * next() ** 2)];
  if (chinese.length < 1000 && next() < 0.01) chinese.push(han);
  return `${words.join(' ')}. ${han}。`;
}

/**
 * Questions: three in four English, one in four Chinese — six characters of a passage's
 * Chinese sentence (`chinese`), asked about ("…是什么？").
 */
export function benchQuestions(count: number, chinese: readonly string[], next: () => number): string[] {
  return Array.from({ length: count }, (_, i) => {
    if (i % 4 === 3) {
      const sentence = chinese[Math.floor(next() * chinese.length)]!;
      const at = Math.floor(next() * (sentence.length - 6));
      return `${sentence.slice(at, at + 6)}是什么？`;
    }
    // Middling ranks: neither in every passage nor in almost none.
    const w = () => wordOf(50 + Math.floor(next() * 5000));
    return `What is the ${w()} of the ${w()} ${w()} in ${w()}?`;
  });
}

/** Seeds the corpus into the database `databaseUrl` names (SQLite in `dataDir` without it). */
export async function seedRetrievalCorpus(dataDir: string, databaseUrl: string | undefined, o: RetrievalBenchOptions) {
  const built = await buildApp({
    config: buildConfig({
      dataDir,
      databaseUrl,
      adminEmail: 'bench@example.com',
      adminPassword: 'Bench#Pass123',
      logLevel: 'warn',
    }),
  });
  const db = built.database.db;
  const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
  const index = new DocumentIndexRepo(db);
  const next = random(42);
  const fileIds: string[] = [];
  const chinese: string[] = [];
  const started = performance.now();
  const now = new Date().toISOString();
  const kb = await db
    .insertInto('knowledge_bases')
    .values({
      name: 'bench',
      description: '',
      scope: 'personal',
      user_id: user.id,
      group_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let d = 0; d * o.chunksPerDocument < o.chunks; d++) {
    const id = crypto.randomUUID();
    fileIds.push(id);
    const count = Math.min(o.chunksPerDocument, o.chunks - d * o.chunksPerDocument);
    const chunks: DocumentChunk[] = Array.from({ length: count }, (_, seq) => ({
      page: Math.floor(seq / 2) + 1,
      seq,
      text: passage(next, chinese),
      tokens: 300,
    }));
    await db
      .insertInto('files')
      .values({
        id,
        user_id: user.id,
        stored_name: `${id}.pdf`,
        original_name: `document-${d}.pdf`,
        mime: 'application/pdf',
        size: 1,
        created_at: now,
        kind: 'document',
        status: 'ready',
      })
      .execute();
    await db.transaction().execute((tx) => index.replace(tx, id, [{ page: 1, text: '' }], chunks));
    await db
      .insertInto('knowledge_base_documents')
      .values({ knowledge_base_id: kb.id, file_id: id, created_at: now })
      .execute();
  }
  return { built, fileIds, chinese, kbId: kb.id, seedSeconds: (performance.now() - started) / 1000 };
}

/** A new PostgreSQL database on the server of `serverUrl`, and how to drop it. */
async function throwawayPostgres(serverUrl: string) {
  const name = `bench_retrieval_${crypto.randomUUID().slice(0, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

/** Seeds and measures on a database of its own (and a data dir), both removed at the end. */
export async function measureRetrieval(o: RetrievalBenchOptions): Promise<Row[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-bench-retrieval-'));
  const postgres = o.postgresUrl ? await throwawayPostgres(o.postgresUrl) : undefined;
  try {
    const { built, fileIds, chinese, kbId, seedSeconds } = await seedRetrievalCorpus(dataDir, postgres?.url, o);
    try {
      return await timeSearches(new Retrieval(new ChunkSearchRepo(built.database.db)), o, {
        dialect: postgres ? 'PostgreSQL' : 'SQLite',
        fileIds,
        chinese,
        kbId,
        seedSeconds,
      });
    } finally {
      await built.app.close();
    }
  } finally {
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Times the questions over the whole knowledge base, then over three documents. */
export async function timeSearches(
  retrieval: Retrieval,
  o: RetrievalBenchOptions,
  corpus: { dialect: string; fileIds: string[]; chinese: string[]; kbId: number; seedSeconds: number },
): Promise<Row[]> {
  const { fileIds, chinese, kbId, seedSeconds } = corpus;
  const asked = benchQuestions(o.warmup + o.samples, chinese, random(7));
  const n = o.chunks.toLocaleString('en-US');
  const scenarios = [
    { what: `one knowledge base of all ${n} chunks`, input: { fileIds: [], knowledgeBaseIds: [kbId] } },
    {
      what: `3 documents (${(3 * o.chunksPerDocument).toLocaleString('en-US')} chunks) among ${n}`,
      input: { fileIds: fileIds.slice(10, 13), knowledgeBaseIds: [] },
    },
  ];
  const rows: Row[] = [];
  for (const s of scenarios) {
    const times: number[] = [];
    let found = 0;
    for (const [i, query] of asked.entries()) {
      const started = performance.now();
      const passages = await retrieval.search({ ...s.input, query, limit: 8 });
      const elapsed = performance.now() - started;
      if (i >= o.warmup) {
        times.push(elapsed);
        found += passages.length;
      }
    }
    const p95 = percentile(times, 95);
    rows.push({
      what: `retrieval (full text, ${corpus.dialect}) over ${s.what}: Retrieval.search, 8 passages, sequential`,
      result: `median ${ms(median(times))}, p95 ${ms(p95)} (${(found / o.samples).toFixed(1)} passages per question; seeded in ${seedSeconds.toFixed(0)} s)`,
      budget: `p95 ≤ ${BUDGET_MS} ms`,
      met: verdict(p95 <= BUDGET_MS),
      data: { dialect: corpus.dialect, samples: o.samples, median: median(times), p95, chunks: o.chunks, seedSeconds },
    });
  }
  return rows;
}
