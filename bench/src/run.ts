import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AdminBench, measureAdminExport, measureAdminUserList, startSeededServer } from './admin-users.js';
import { createUser } from './api.js';
import { measureConcurrentStreams } from './concurrent-streams.js';
import { measureConversationsList } from './conversations-list.js';
import { measureCreditsContention } from './credits-contention.js';
import { measureDocumentReady } from './documents.js';
import { measureIdleRss } from './idle-rss.js';
import { measureRetrieval } from './retrieval.js';
import { measureSso } from './sso.js';
import { openAppDb, setBalance } from './db.js';
import { startBareProxy } from './bare-proxy.js';
import { startFakeUpstream } from './fake-process.js';
import { measureLoginBundle } from './login-bundle.js';
import { type ServerProcess, startServer } from './server-process.js';
import { type Row, verdict } from './stats.js';
import { measureTtft } from './ttft.js';
import { measureDocumentTtft } from './ttft-documents.js';
import { measureV1Ttft } from './ttft-v1.js';
import { measureUsageStats } from './usage-stats.js';
import { ensureWebBuild } from './web-build.js';
import { measureWebConversation } from './web-conversation.js';

/*
 * `npm run bench`: measures against the performance budgets (docs/performance.md) and writes
 * bench/results/latest.{json,md}. Every figure comes with a baseline measured in the
 * same run (the upstream called directly, /api/health, a short conversation), never
 * as a bare time alone. Each measurement lives in its own file; this one only orders them.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const config = {
  seconds: env('BENCH_SECONDS', 5),
  ttftSamples: env('BENCH_TTFT_SAMPLES', 200),
  /** A realistic model's time to its first token, for the second TTFT measurement. */
  ttftModelMs: env('BENCH_TTFT_MODEL_MS', 150),
  /** Samples of each variant of the time to first token with documents (none, whole, by relevance). */
  ttftDocumentSamples: env('BENCH_TTFT_DOCUMENT_SAMPLES', 100),
  streams: env('BENCH_STREAMS', 1000),
  streamUsers: env('BENCH_STREAM_USERS', 10),
  streamChunkDelayMs: env('BENCH_STREAM_DELAY_MS', 200),
  streamRampMs: env('BENCH_STREAM_RAMP_MS', 4000),
  contentionSends: env('BENCH_CONTENTION_SENDS', 200),
  contentionAffordable: env('BENCH_CONTENTION_AFFORDABLE', 50),
  webMessages: env('BENCH_WEB_MESSAGES', 2000),
  webRuns: env('BENCH_WEB_RUNS', 3),
  adminUsers: env('BENCH_ADMIN_USERS', 100_000),
  adminSamples: env('BENCH_ADMIN_SAMPLES', 50),
  statsMessages: env('BENCH_STATS_MESSAGES', 1_000_000),
  statsUsers: env('BENCH_STATS_USERS', 1000),
  statsDays: env('BENCH_STATS_DAYS', 90),
  statsSamples: env('BENCH_STATS_SAMPLES', 200),
  ssoSamples: env('BENCH_SSO_SAMPLES', 200),
  retrievalChunks: env('BENCH_RETRIEVAL_CHUNKS', 100_000),
  retrievalSamples: env('BENCH_RETRIEVAL_SAMPLES', 200),
  postgresUrl: process.env.BENCH_POSTGRES_URL || undefined, // retrieval measured there too, in a database of its own
  ssoConcurrency: env('BENCH_SSO_CONCURRENCY', 20),
  documentPages: env('BENCH_DOCUMENT_PAGES', 200),
  documentRuns: env('BENCH_DOCUMENT_RUNS', 3),
  chromium: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
};
/**
 * BENCH_ONLY=admin,credits runs only those entries (ttft, streams, list, credits, web,
 * admin, stats, sso, retrieval, documents), BENCH_SKIP=stats all but those; the other rows of
 * bench/results/latest.json are kept from the previous run.
 */
const ENTRIES = [
  'ttft',
  'streams',
  'list',
  'credits',
  'web',
  'admin',
  'stats',
  'sso',
  'retrieval',
  'documents',
] as const;
type Entry = (typeof ENTRIES)[number];
const entriesOf = (variable: string) => {
  const names = (process.env[variable] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(ENTRIES as readonly string[]).includes(name))
      throw new Error(`${variable}: unknown entry ${name} (${ENTRIES.join(', ')})`);
  }
  return names;
};
const only = entriesOf('BENCH_ONLY');
const skip = entriesOf('BENCH_SKIP');
const wanted = (entry: Entry) => (only.length === 0 || only.includes(entry)) && !skip.includes(entry);
const partialRun = only.length > 0 || skip.length > 0;
const selection = () =>
  [only.length > 0 ? `BENCH_ONLY=${only.join(',')}` : '', skip.length > 0 ? `BENCH_SKIP=${skip.join(',')}` : '']
    .filter(Boolean)
    .join(' ');
const COST_PER_CHAT = 10; // the seeded default model
const rows: Row[] = [];

/** Runs one measurement of `entry`; a failure becomes a row of its own instead of ending the run. */
async function measure(entry: Entry, what: string, fn: () => Promise<Row[]>) {
  const started = Date.now();
  try {
    rows.push(...(await fn()).map((r) => ({ entry, ...r })));
  } catch (err) {
    console.error(`bench: ${what} failed:`, err);
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0]?.replaceAll('|', '/');
    rows.push({ entry, what, result: `failed: ${message}`, budget: '—', met: 'NO' });
  }
  console.error(`bench: ${what} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  const loadBefore = os.loadavg();
  const servers: ServerProcess[] = [];
  // The entries that start servers of their own.
  const ownServers = ['admin', 'stats', 'sso', 'retrieval', 'documents'];
  const needsMain = ENTRIES.some((e) => !ownServers.includes(e) && wanted(e));
  const fake = needsMain ? await startFakeUpstream(root) : undefined;
  try {
    if (fake) await mainEntries(fake, servers);
    if (wanted('admin')) await adminEntries(servers);
    if (wanted('stats')) {
      await measure('stats', 'statistics endpoints', () =>
        measureUsageStats({
          users: config.statsUsers,
          messages: config.statsMessages,
          days: config.statsDays,
          samples: config.statsSamples,
          warmup: 20,
        }),
      );
    }
    if (wanted('retrieval')) {
      // In this process, on a database of its own: the time of the search itself.
      const retrieval = { chunks: config.retrievalChunks, chunksPerDocument: 500, samples: config.retrievalSamples };
      await measure('retrieval', 'retrieval', () => measureRetrieval({ ...retrieval, warmup: 20 }));
      if (config.postgresUrl)
        await measure('retrieval', 'retrieval on PostgreSQL', () =>
          measureRetrieval({ ...retrieval, warmup: 20, postgresUrl: config.postgresUrl }),
        );
    }
    if (wanted('sso')) {
      // Its own server (with a super administrator to add the provider) and OpenID issuer.
      await measure('sso', 'single sign-on', () =>
        measureSso({
          root,
          samples: config.ssoSamples,
          warmup: 20,
          concurrency: config.ssoConcurrency,
          seconds: config.seconds,
        }),
      );
    }
    if (wanted('documents')) {
      // Its own server: the worker threads reading the document are the load.
      await measure('documents', 'document ready for questions', () =>
        measureDocumentReady({ root, pages: config.documentPages, runs: config.documentRuns, budgetS: 20 }),
      );
    }
  } finally {
    for (const s of servers) await s.stop();
    await fake?.stop();
  }
  report(loadBefore);
}

async function mainEntries(fake: Awaited<ReturnType<typeof startFakeUpstream>>, servers: ServerProcess[]) {
  // The fake upstream becomes the default model `gpt-4.1-mini-op` (10 credits per chat).
  const chatEnv = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.url };
  const api = await startServer(root, chatEnv);
  servers.push(api);
  const db = openAppDb(api.dataDir);
  try {
    if (wanted('list')) {
      await measure('list', 'idle server RSS', () =>
        measureIdleRss({ serverPid: api.pid, settleMs: 5000, budgetMb: 150 }),
      );
    }
    if (wanted('ttft')) {
      // An instant upstream shows the platform's whole cost; one that takes as long as a real
      // model to its first token shows what is left when the platform works while it waits.
      const ttftRuns = [
        { firstTokenMs: 0, budget: { median: 2 } },
        { firstTokenMs: config.ttftModelMs, budget: { median: 1, p99: 5 } },
      ];
      for (const run of ttftRuns) {
        const upstream = run.firstTokenMs > 0 ? `, upstream first token after ${run.firstTokenMs} ms` : '';
        await measure('ttft', `time to first token${upstream}`, async () => {
          const user = await createUser(api.url, 'ttft');
          setBalance(db, user.id, (config.ttftSamples + 50) * COST_PER_CHAT);
          const proxy = await startBareProxy(root, fake.url);
          try {
            return await measureTtft({
              apiUrl: api.url,
              upstreamUrl: fake.url,
              proxyUrl: proxy.url,
              user,
              samples: config.ttftSamples,
              warmup: 20,
              ...run,
            });
          } finally {
            await proxy.stop();
          }
        });
        await fake.reset();
      }
      await measure('ttft', 'time to first token through /v1', async () => {
        const user = await createUser(api.url, 'ttftv1');
        setBalance(db, user.id, 2 * (config.ttftSamples + 50) * COST_PER_CHAT);
        return measureV1Ttft({ apiUrl: api.url, user, db, samples: config.ttftSamples, warmup: 20 });
      });
      await fake.reset();
      await measure('ttft', 'time to first token with documents', async () => {
        const user = await createUser(api.url, 'ttftdoc');
        setBalance(db, user.id, 3 * (config.ttftDocumentSamples + 60) * COST_PER_CHAT);
        return measureDocumentTtft({ apiUrl: api.url, user, samples: config.ttftDocumentSamples, warmup: 10 });
      });
      await fake.reset();
    }
    if (wanted('streams')) {
      await measure('streams', 'concurrent streaming chats', async () => {
        // Its own server process, so that the memory measured is that of this load alone.
        const server = await startServer(root, chatEnv);
        servers.push(server);
        const streamsDb = openAppDb(server.dataDir);
        const proxy = await startBareProxy(root, fake.url);
        try {
          const users = [];
          for (let i = 0; i < config.streamUsers; i++) users.push(await createUser(server.url, 'stream'));
          return await measureConcurrentStreams({
            apiUrl: server.url,
            upstreamUrl: fake.url,
            proxy,
            serverPid: server.pid,
            db: streamsDb,
            users,
            costPerChat: COST_PER_CHAT,
            streams: config.streams,
            chunkDelayMs: config.streamChunkDelayMs,
            rampMs: config.streamRampMs,
            timeoutMs: 90_000,
          });
        } finally {
          await proxy.stop();
          streamsDb.close();
          await server.stop();
        }
      });
      await fake.reset();
    }
    if (wanted('list')) {
      await measure('list', 'conversation list throughput', async () => {
        const user = await createUser(api.url, 'list');
        return measureConversationsList({
          root,
          apiUrl: api.url,
          serverPid: api.pid,
          user,
          count: 100,
          seconds: config.seconds,
          rounds: 2,
        });
      });
    }
    if (wanted('credits')) {
      await measure('credits', 'credits contention', async () => {
        const user = await createUser(api.url, 'credits');
        return measureCreditsContention({
          apiUrl: api.url,
          db,
          user,
          sends: config.contentionSends,
          affordable: config.contentionAffordable,
          costPerChat: COST_PER_CHAT,
        });
      });
    }
    if (wanted('web')) {
      const dist = ensureWebBuild(root);
      await measure('web', 'web: initial JS for /login', async () => {
        const b = measureLoginBundle(dist);
        return [
          {
            what: 'web: initial JS for /login (gzip)',
            result: `${(b.gzipBytes / 1024).toFixed(1)} KB`,
            budget: '≤ 250 KB',
            met: verdict(b.gzipBytes <= b.budgetBytes),
          },
        ];
      });
      await measure('web', 'web: long conversation', async () => {
        if (!fs.existsSync(config.chromium)) throw new Error(`no Chromium at ${config.chromium} (set CHROMIUM_PATH)`);
        const user = await createUser(api.url, 'web');
        return measureWebConversation({
          apiUrl: api.url,
          db,
          user,
          executablePath: config.chromium,
          messages: config.webMessages,
          baselineMessages: 10,
          streamDelayMs: 40,
          streamRepeat: 3,
          runs: config.webRuns,
        });
      });
    }
  } finally {
    db.close();
  }
}

/** Both admin entries share one server on a seeded database of its own. */
async function adminEntries(servers: ServerProcess[]) {
  const held: { bench?: AdminBench } = {};
  await measure('admin', 'admin: seed users', async () => {
    const bench = await startSeededServer(root, config.adminUsers);
    held.bench = bench;
    servers.push(bench.server);
    const { seed } = bench;
    return [
      {
        what: `admin users: seeding ${seed.users.toLocaleString('en-US')} users straight into SQLite (setup)`,
        result: `${seed.seconds.toFixed(1)} s, ${bench.liveUsers.toLocaleString('en-US')} live over ${seed.groupIds.length + 1} groups`,
        budget: '—',
        met: '—',
      },
    ];
  });
  const seeded = held.bench;
  if (!seeded) return;
  await measure('admin', 'admin user search + page', () =>
    measureAdminUserList(seeded, { samples: config.adminSamples, budgetMs: 50 }),
  );
  await measure('admin', 'admin CSV export', () => measureAdminExport(seeded, { flatMb: 32 }));
}

/**
 * A partial run (BENCH_ONLY, BENCH_SKIP) keeps the previous rows of the other entries,
 * in place, and says so in the results.
 */
function mergeWithPrevious(file: string): { rows: Row[]; previousDate?: string } {
  if (!partialRun || !fs.existsSync(file)) return { rows };
  const previous = JSON.parse(fs.readFileSync(file, 'utf8')) as { date?: string; rows?: Row[] };
  const fresh = new Set(rows.map((r) => r.what));
  const merged: Row[] = [];
  let placed = false;
  for (const r of previous.rows ?? []) {
    if ((r.entry !== undefined && wanted(r.entry as Entry)) || fresh.has(r.what)) {
      if (!placed) merged.push(...rows);
      placed = true;
    } else {
      merged.push(r);
    }
  }
  if (!placed) merged.push(...rows);
  return { rows: merged, previousDate: previous.date };
}

function report(loadBefore: number[]) {
  const jsonFile = path.join(here, '../results/latest.json');
  const { rows: all, previousDate } = mergeWithPrevious(jsonFile);
  const table = [
    '| what | result | budget | met |',
    '|---|---|---|---|',
    ...all.map((r) => `| ${r.what} | ${r.result} | ${r.budget} | ${r.met} |`),
  ].join('\n');
  console.log(table);
  const partial = previousDate
    ? `Partial run (${selection()}); the rows of the other entries are from ${previousDate}.\n\n`
    : '';
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
  const stamp = {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    node: process.version,
    loadBefore: load(loadBefore),
    loadAfter: load(os.loadavg()),
  };
  fs.mkdirSync(path.join(here, '../results'), { recursive: true });
  const partialJson = previousDate ? { partial: { only, skip, otherRowsFrom: previousDate } } : {};
  fs.writeFileSync(jsonFile, JSON.stringify({ ...stamp, ...partialJson, config, rows: all }, null, 2));
  fs.writeFileSync(
    path.join(here, '../results/latest.md'),
    `# Benchmark results\n\n${stamp.date}, ${stamp.cpus} cores, Node ${stamp.node}, ` +
      `load average ${stamp.loadBefore} before and ${stamp.loadAfter} after\n\n${partial}${table}\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
