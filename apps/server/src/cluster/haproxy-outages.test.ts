import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Cluster } from '../../../../scripts/cluster.mjs';
import { openDatabase } from '../db/database.js';
import {
  HAPROXY,
  type ClusterMember,
  type Outcome,
  clusterClient,
  countBy,
  readLedgers,
  record,
  startSourceCluster,
} from '../../test/cluster-client.js';
import { type FakeUpstream, startFakeUpstream } from '../../test/fake-upstream.js';
import { OwnRedis, canRunOwnRedis } from '../../test/own-redis.js';
import { TcpProxy } from '../../test/tcp-proxy.js';
import { TEST_DATABASE_URL } from '../../test/test-app.js';
import { type ThrowawayDatabase, createThrowawayDatabase } from '../../test/throwaway-database.js';

const missing = [
  !HAPROXY && 'haproxy (apt-get install haproxy)',
  !TEST_DATABASE_URL && 'TEST_DATABASE_URL',
  !canRunOwnRedis && 'redis-server (/usr/bin/redis-server)',
].filter(Boolean);
const SKIPPED = missing.length ? ` (skipped: needs ${missing.join(', ')})` : '';
/** Short leases, so a turn cut by the database going away is settled within seconds. */
const ANSWER_LEASE_MS = 3_000;
/** HAProxy checks every 2 s and needs two results to change its mind: time to move traffic. */
const TRANSITION_MS = 3_000;
/** A request during the database outage answers within this (a 503), never hangs. */
const QUICK_MS = 2_500;
/** A request that has not answered after this counts as hung (status 0). */
const HUNG_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/*
 * Three instances behind HAProxy, with their database reached through a relay that can
 * cut it off and a Redis of the test's own, under a little steady load. Redis killed:
 * HAProxy falls back to the instances that are alive and every request keeps working.
 * Database cut off: every request answers 503 at once (never 500, never hanging) and
 * works again as soon as the database is back, without restarting anything. Afterwards
 * every balance is its ledger's sum and every answered send is charged exactly once.
 */
describe.skipIf(missing.length > 0)(`a cluster behind HAProxy through outages${SKIPPED}`, () => {
  let database: ThrowawayDatabase;
  let relay: TcpProxy;
  let redis: OwnRedis;
  let fake: FakeUpstream;
  let cluster: Cluster | undefined;
  let dataDir: string;
  let api: ReturnType<typeof clusterClient>;
  const output: string[] = [];
  const showOutput = () => console.log(output.slice(-80).join('\n'));

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-cluster-outages-'));
    database = await createThrowawayDatabase();
    const direct = new URL(database.url);
    relay = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
    const relayed = new URL(database.url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    redis = await OwnRedis.start();
    fake = await startFakeUpstream();
    cluster = await startSourceCluster({
      databaseUrl: relayed.toString(),
      redisUrl: redis.url,
      dataDir,
      upstreamUrl: fake.url,
      env: { ANSWER_LEASE_MS: String(ANSWER_LEASE_MS) },
      log: (line) => output.push(line),
    }).catch((err: unknown) => {
      showOutput();
      throw err;
    });
    api = clusterClient(cluster.url);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await fake?.close();
    await redis?.kill();
    await relay?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('keeps serving without Redis, answers 503 at once without the database, recovers, and keeps every ledger exact', async () => {
    onTestFailed(showOutput);
    const members = await Promise.all([1, 2, 3].map(api.member));
    const startBalances = (await readLedgers(database.url, dataDir, members)).balances;

    const outcomes: Outcome[] = [];
    let running = true;
    const loop = async (m: ClusterMember, i: number) => {
      const signal = () => AbortSignal.timeout(HUNG_MS);
      for (let n = 0; running; n += 1) {
        await record(outcomes, 'me', () => api.call('GET', '/api/auth/me', { token: m.token, signal: signal() }));
        await record(outcomes, 'conversations', () =>
          api.call('GET', '/api/chat/conversations', { token: m.token, signal: signal() }),
        );
        await record(outcomes, 'send', () =>
          api.call('POST', `/api/chat/conversations/${m.conversationId}/messages`, {
            token: m.token,
            body: { content: `outage ${i}.${n}`, stream: false },
            signal: signal(),
          }),
        );
        // A little load, not a flood: the machine runs three instances and HAProxy.
        await sleep(100);
      }
    };
    const loops = members.map(loop);
    /** Outcomes of requests started from `from` until `to`. */
    const between = (from: number, to = Date.now()) => outcomes.filter((o) => o.startedAt >= from && o.startedAt < to);
    const describeAll = (list: Outcome[]) =>
      countBy(list.map((o) => `${o.kind} ${o.status}${o.error ? ` ${o.error}` : ''}`));
    onTestFailed(() => console.log(describeAll(outcomes)));

    try {
      // Warm: everything answers.
      const warmFrom = Date.now();
      await sleep(2_000);
      expect(between(warmFrom).filter((o) => o.status !== 200)).toEqual([]);

      // 1. Redis killed: after a short transition, nothing fails; nor once it is back.
      await redis.kill();
      const redisGoneAt = Date.now();
      await sleep(TRANSITION_MS + 4_000);
      const withoutRedis = between(redisGoneAt + TRANSITION_MS);
      expect(withoutRedis.filter((o) => o.kind === 'send').length).toBeGreaterThanOrEqual(3);
      expect(withoutRedis.filter((o) => o.status !== 200)).toEqual([]);
      await redis.start();
      const redisBackAt = Date.now();
      await sleep(5_000);
      expect(between(redisBackAt).filter((o) => o.status !== 200)).toEqual([]);

      // 2. Database cut off: quick 503s, never a 500 or a hang; then working again.
      await relay.refuse();
      const databaseGoneAt = Date.now();
      await sleep(5_000);
      const databaseBackAt = Date.now();
      await relay.pass();
      const withoutDatabase = between(databaseGoneAt, databaseBackAt);
      expect(withoutDatabase.filter((o) => o.kind === 'send' && o.status === 503).length).toBeGreaterThan(0);
      // A read may still be answered from what the instance knows already.
      expect(withoutDatabase.filter((o) => ![200, 503].includes(o.status))).toEqual([]);
      expect(withoutDatabase.filter((o) => o.ms > QUICK_MS)).toEqual([]);
      // Back within a few seconds: from then on every request works.
      const firstAnswered = () =>
        outcomes.find((o) => o.kind === 'send' && o.startedAt >= databaseBackAt && o.status === 200);
      for (const deadline = Date.now() + 10_000; !firstAnswered() && Date.now() < deadline;) await sleep(200);
      const recovered = firstAnswered();
      expect(recovered, 'a send answered once the database is back').toBeDefined();
      await sleep(4_000);
      const afterRecovery = between(recovered!.startedAt + 1_000);
      expect(afterRecovery.filter((o) => o.kind === 'send').length).toBeGreaterThanOrEqual(3);
      expect(afterRecovery.filter((o) => o.status !== 200)).toEqual([]);
    } finally {
      running = false;
      await Promise.all(loops);
    }

    // 3. Ledgers: turns cut by the outage are settled by their lease; then every balance is
    // its ledger's sum, every answered send is charged once, and nothing is charged twice.
    const db = openDatabase({ databaseUrl: database.url, dataDir });
    try {
      const answers = () =>
        db.db
          .selectFrom('messages')
          .select(['id', 'status'])
          .where(
            'conversation_id',
            'in',
            members.map((m) => m.conversationId),
          )
          .where('role', '=', 'assistant')
          .execute();
      let rows = await answers();
      for (const deadline = Date.now() + 15_000; rows.some((r) => r.status === 'streaming') && Date.now() < deadline;) {
        await sleep(250);
        rows = await answers();
      }
      expect(rows.filter((r) => r.status === 'streaming')).toEqual([]);

      // A turn cut before its answer was stored is refunded (same reference as its charge).
      const entries = await db.db
        .selectFrom('credit_transactions')
        .select(['user_id', 'reference_id', 'transaction_type', 'amount'])
        .where('transaction_type', 'in', ['chat_consume', 'system_refund'])
        .where(
          'user_id',
          'in',
          members.map((m) => m.id),
        )
        .execute();
      // Nothing charged twice, nor refunded twice.
      const perTurn = countBy(entries.map((e) => `${e.reference_id} ${e.transaction_type}`));
      expect(Object.entries(perTurn).filter(([, n]) => n !== 1)).toEqual([]);
      // Every complete answer charged, and not refunded.
      const complete = rows.filter((r) => r.status === 'complete');
      expect(
        complete.filter((r) => perTurn[`${r.id} chat_consume`] !== 1 || perTurn[`${r.id} system_refund`] !== undefined),
      ).toEqual([]);
      // Every send answered 200 is a complete answer (one cut by the outage may have completed unseen).
      const sends = outcomes.filter((o) => o.kind === 'send');
      expect(complete.length).toBeGreaterThanOrEqual(sends.filter((o) => o.status === 200).length);
      expect(complete.length).toBeLessThanOrEqual(sends.length);

      // Every balance is its ledger's sum, and moved by exactly these charges and refunds.
      const ledgers = await readLedgers(database.url, dataDir, members);
      for (const b of ledgers.balances) {
        const start = startBalances.find((s) => s.id === b.id)!.balance;
        const moved = entries.filter((e) => e.user_id === b.id).reduce((sum, e) => sum + e.amount, 0);
        expect(b.ledgerSum, `ledger of user ${b.id}`).toBe(b.balance);
        expect(b.balance, `balance of user ${b.id}`).toBe(start + moved);
      }
    } finally {
      await db.close();
    }
  }, 75_000);
});
