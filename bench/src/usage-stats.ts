import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../apps/server/src/db/database.js';
import { backfillUsageRollups } from '../../apps/server/src/db/migrations/0007-usage-rollups.js';
import { openAppDb } from './db.js';
import { type InjectApp, startInjectApp } from './inject-app.js';
import { median, ms, percentile, type Row, verdict } from './stats.js';
import { STATS_ADMIN, type StatsSeed, seedStatsHistory } from './stats-seed.js';

/*
 * The statistics endpoints over a long chat history. A new database is migrated (the
 * server built once, which also creates the super administrator), the history is written
 * straight into it, the usage rollups are back-filled from it as migration 0007 does,
 * then the server is built again on it and each endpoint is called sequentially through
 * fastify.inject: the figures are the server's own CPU and elapsed time per request, beside
 * /api/health measured the same way; the budgets are judged on the CPU time, which other
 * processes on the same cores stretch far less. The data dir is removed at the end.
 */

export interface UsageStatsOptions {
  users: number;
  messages: number;
  days: number;
  samples: number;
  warmup: number;
}

const TURNS_PER_CONVERSATION = 10;
const BUDGETS = { realtime: 10, overview: 50 };

interface Backfill {
  seconds: number;
  answers: number;
  dailyRows: number;
  totalRows: number;
}

/** Empties the rollups (the migration filled them from an empty history) and fills them again, timed. */
async function backfill(dataDir: string): Promise<Backfill> {
  const handle = openDatabase({ dataDir });
  const { db } = handle;
  try {
    await db.deleteFrom('usage_daily').execute();
    await db.deleteFrom('usage_daily_totals').execute();
    const started = performance.now();
    const answers = await backfillUsageRollups(db as unknown as Kysely<unknown>);
    const seconds = (performance.now() - started) / 1000;
    const count = async (table: 'usage_daily' | 'usage_daily_totals') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { seconds, answers, dailyRows: await count('usage_daily'), totalRows: await count('usage_daily_totals') };
  } finally {
    await handle.close();
  }
}

interface Sampled {
  /** fastify's elapsed time of the request. */
  median: number;
  p95: number;
  injectMedian: number;
  /** CPU time of the request (what the elapsed time would be on otherwise idle cores). */
  cpuMedian: number;
  cpuP95: number;
}

async function sample(app: InjectApp, url: string, token: string | undefined, o: UsageStatsOptions): Promise<Sampled> {
  const server: number[] = [];
  const inject: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < o.warmup + o.samples; i++) {
    const r = await app.get(url, token);
    if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${r.body.slice(0, 200)}`);
    if (i < o.warmup) continue;
    server.push(r.serverMs);
    inject.push(r.injectMs);
    cpu.push(r.cpuMs);
  }
  return {
    median: median(server),
    p95: percentile(server, 95),
    injectMedian: median(inject),
    cpuMedian: median(cpu),
    cpuP95: percentile(cpu, 95),
  };
}

async function measureEndpoints(dataDir: string, seed: StatsSeed, o: UsageStatsOptions): Promise<Row[]> {
  const app = await startInjectApp(dataDir, STATS_ADMIN);
  try {
    const admin = await app.login(STATS_ADMIN.email, STATS_ADMIN.password);
    const user = await app.login(seed.sampleEmail, STATS_ADMIN.password);
    const health = await sample(app, '/api/health', undefined, o);
    const n = seed.messages.toLocaleString('en-US');
    const rows: Row[] = [
      {
        what: 'stats: GET /api/health (baseline, same instance, sequential, server time)',
        result: `CPU median ${ms(health.cpuMedian)}, p95 ${ms(health.cpuP95)}; elapsed median ${ms(health.median)}, p95 ${ms(health.p95)}`,
        budget: '—',
        met: '—',
        data: { samples: o.samples, ...health },
      },
    ];
    const endpoints = [
      { url: '/api/stats/realtime', token: admin, budget: BUDGETS.realtime },
      { url: '/api/admin/stats/overview?days=30', token: admin, budget: BUDGETS.overview },
      { url: '/api/admin/stats/overview?days=90', token: admin, budget: undefined },
      { url: '/api/stats/me?days=30', token: user, budget: undefined },
    ];
    for (const e of endpoints) {
      const r = await sample(app, e.url, e.token, o);
      rows.push({
        what: `stats over ${n} messages: \`GET ${e.url}\` (server's CPU and elapsed time)`,
        result:
          `CPU median ${ms(r.cpuMedian)}, p95 ${ms(r.cpuP95)}; ` +
          `elapsed median ${ms(r.median)}, p95 ${ms(r.p95)} ` +
          `(×${(r.median / health.median).toFixed(0)} of /api/health: ${ms(health.median)})`,
        // Judged on CPU time: the elapsed time stretches with whatever else shares the cores.
        budget: e.budget === undefined ? '— (information)' : `p95 ≤ ${e.budget} ms of CPU time`,
        met: e.budget === undefined ? '—' : verdict(r.cpuP95 <= e.budget),
        data: { url: e.url, samples: o.samples, ...r, healthMedian: health.median },
      });
    }
    return rows;
  } finally {
    await app.close();
  }
}

/** Seeds, back-fills and measures on a data dir of its own, removed at the end. */
export async function measureUsageStats(o: UsageStatsOptions): Promise<Row[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-bench-stats-'));
  try {
    await (await startInjectApp(dataDir, STATS_ADMIN)).close();
    const db = openAppDb(dataDir);
    let seed: StatsSeed;
    let ledgerOff: number;
    try {
      const conversations = Math.max(1, Math.round(o.messages / (2 * TURNS_PER_CONVERSATION)));
      seed = seedStatsHistory(db, {
        users: o.users,
        conversations,
        turnsPerConversation: TURNS_PER_CONVERSATION,
        days: o.days,
      });
      ledgerOff = (
        db
          .prepare(
            `select count(*) as n from users u where u.role = 'user' and u.credits_quota - u.credits_used <>
               (select coalesce(sum(amount), 0) from credit_transactions where user_id = u.id)`,
          )
          .get() as { n: number }
      ).n;
    } finally {
      db.close();
    }
    if (ledgerOff > 0) throw new Error(`seeding: ${ledgerOff} users whose ledger does not sum to their balance`);
    console.error(`bench: stats history seeded in ${seed.seconds.toFixed(1)} s`);
    const filled = await backfill(dataDir);
    const count = (v: number) => v.toLocaleString('en-US');
    const setup: Row[] = [
      {
        what: `stats: seeding ${count(seed.messages)} messages straight into SQLite (setup)`,
        result:
          `${seed.seconds.toFixed(1)} s: ${count(seed.users)} users in ${seed.groups} groups, ${seed.models} models, ` +
          `${count(seed.conversations)} conversations over ${o.days} days, ${count(seed.ledgerRows)} ledger rows summing to every balance`,
        budget: '—',
        met: '—',
        data: { ...seed },
      },
      {
        what: `stats: back-fill of the usage rollups from ${count(seed.messages)} messages (setup)`,
        result:
          `${filled.seconds.toFixed(1)} s for ${count(filled.answers)} answers: ` +
          `${count(filled.dailyRows)} usage_daily + ${count(filled.totalRows)} usage_daily_totals rows`,
        budget: '—',
        met: '—',
        data: { ...filled },
      },
    ];
    return [...setup, ...(await measureEndpoints(dataDir, seed, o))];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
