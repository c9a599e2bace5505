import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Cluster } from '../../../../scripts/cluster.mjs';
import { openDatabase } from '../db/database.js';
import { CreditsRepo } from '../modules/credits/credits.repo.js';
import {
  CLUSTER_ADMIN as ADMIN,
  HAPROXY,
  type Outcome,
  clusterClient,
  countBy,
  readLedgers,
  record as recordInto,
  startSourceCluster,
} from '../../test/cluster-client.js';
import { type FakeUpstream, fakeAnswer, startFakeUpstream } from '../../test/fake-upstream.js';
import { TEST_DATABASE_URL } from '../../test/test-app.js';
import { type ThrowawayDatabase, createThrowawayDatabase } from '../../test/throwaway-database.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const missing = [
  !HAPROXY && 'haproxy (apt-get install haproxy)',
  !TEST_DATABASE_URL && 'TEST_DATABASE_URL',
  !REDIS_URL && 'TEST_REDIS_URL',
].filter(Boolean);
const SKIPPED = missing.length ? ` (skipped: needs ${missing.join(', ')})` : '';
/** Load before the crash and after it (the instance's exit), in ms. */
const LOAD_BEFORE_MS = 2_500;
const LOAD_AFTER_MS = 4_000;
/** Short leases, so a turn cut by a killed instance is settled within seconds (every 1.5 s a sweep). */
const ANSWER_LEASE_MS = 3_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/*
 * Three instances of the server (as separate processes, from the sources) behind HAProxy
 * configured from deploy/haproxy.cfg, under steady load; one is killed with SIGKILL in
 * the middle. Reads never fail (retried on another instance), a write fails only when it
 * was on the dying instance, nothing sent after the crash fails, and credits stay exact.
 */
describe.skipIf(missing.length > 0)(`a cluster behind HAProxy${SKIPPED}`, () => {
  let database: ThrowawayDatabase;
  let fake: FakeUpstream;
  let cluster: Cluster | undefined;
  let dataDir: string;
  const output: string[] = [];
  /** The instances' and HAProxy's output, shown when something failed. */
  const showOutput = () => console.log(output.slice(-80).join('\n'));

  let api: ReturnType<typeof clusterClient>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-cluster-test-'));
    database = await createThrowawayDatabase();
    fake = await startFakeUpstream();
    cluster = await startSourceCluster({
      databaseUrl: database.url,
      redisUrl: REDIS_URL!,
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
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('takes the client address from its own X-Forwarded-For entry, never one the client wrote', async () => {
    onTestFailed(showOutput);
    const token = await api.signIn(ADMIN.email, ADMIN.password, { 'x-forwarded-for': '203.0.113.9' });
    const db = openDatabase({ databaseUrl: database.url, dataDir });
    try {
      // Every sign-in so far came from this machine, the one with a forged header included.
      const sessions = await db.db.selectFrom('auth_sessions').select('ip').execute();
      expect(new Set(sessions.map((s) => s.ip))).toEqual(new Set(['127.0.0.1']));
    } finally {
      await db.close();
    }
    expect(token).toBeTruthy();
  });

  it('passes a streamed answer on piece by piece, not once it is complete', async () => {
    onTestFailed(showOutput);
    const m = await api.member(0);
    const res = await fetch(`${cluster!.url}/api/chat/conversations/${m.conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: '[fake:delay=60] through the proxy', stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: message')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    // The first piece is here while the model is still answering (a piece every 60 ms).
    const upstream = fake.requests.find((r) => r.stream && r.lastUserText.includes('through the proxy'));
    expect(upstream?.outcome).toBe('pending');
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(text).toContain('event: done');
  });

  it('loses no read and no write sent after an instance is killed under load; credits stay exact', async () => {
    onTestFailed(showOutput);
    const members = await Promise.all([1, 2, 3, 4].map(api.member));

    const outcomes: Outcome[] = [];
    let exitedAt = Number.POSITIVE_INFINITY;
    const sendsAfterCrash = () => outcomes.filter((o) => o.kind === 'send' && o.startedAt >= exitedAt).length;
    // Steady load until a while after the crash, with at least 8 sends started after it.
    const keepGoing = () => Date.now() < exitedAt + LOAD_AFTER_MS || sendsAfterCrash() < 8;
    const record = (kind: Outcome['kind'], run: () => Promise<{ status: number }>) => recordInto(outcomes, kind, run);
    // One loop per member, each request after the previous answer (a conversation answers one send at a time).
    const loops = members.map(async (m, i) => {
      for (let n = 0; keepGoing(); n += 1) {
        await record('me', () => api.call('GET', '/api/auth/me', { token: m.token }));
        await record('conversations', () => api.call('GET', '/api/chat/conversations', { token: m.token }));
        await record('send', () =>
          api.call('POST', `/api/chat/conversations/${m.conversationId}/messages`, {
            token: m.token,
            body: { content: `load ${i}.${n}`, stream: false },
          }),
        );
      }
    });

    // The first requests warm every instance up; the crash comes once the load is steady.
    const warm = Date.now() + 20_000;
    while (outcomes.filter((o) => o.kind === 'send').length < 8 && Date.now() < warm) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, LOAD_BEFORE_MS));
    const victim = cluster!.instances[1]!;
    const exited = new Promise((r) => victim.child.once('exit', r));
    victim.child.kill('SIGKILL');
    await exited;
    exitedAt = Date.now();
    await Promise.all(loops);

    const summary = outcomes.map((o) => `${o.kind} ${o.startedAt < exitedAt ? 'before' : 'after'} ${o.status}`);
    onTestFailed(() => console.log(Object.entries(countBy(summary)).join('\n')));
    const before = outcomes.filter((o) => o.startedAt < exitedAt);
    const after = outcomes.filter((o) => o.startedAt >= exitedAt);
    // Enough traffic on both sides of the crash for the test to mean something.
    expect(before.filter((o) => o.kind === 'send').length).toBeGreaterThanOrEqual(8);
    expect(after.filter((o) => o.kind === 'send').length).toBeGreaterThanOrEqual(8);

    const unexpected = outcomes.filter((o) => {
      if (o.kind !== 'send') return o.status !== 200;
      // A send on the instance as it died cannot be replayed safely: HAProxy answers 502, or
      // closes the client's connection without an answer when it had carried earlier requests.
      return o.startedAt < exitedAt ? ![200, 502, 0].includes(o.status) : o.status !== 200;
    });
    expect(unexpected).toEqual([]);

    // Every balance is its ledger's sum, and nobody is charged twice for one answered send.
    const ledgers = await readLedgers(database.url, dataDir, members);
    for (const b of ledgers.balances) expect(b.ledgerSum, `ledger of user ${b.id}`).toBe(b.balance);
    const answered = outcomes.filter((o) => o.kind === 'send' && o.status === 200).length;
    const failed = outcomes.filter((o) => o.kind === 'send' && o.status !== 200).length;
    expect(ledgers.charges).toBeGreaterThanOrEqual(answered);
    expect(ledgers.charges).toBeLessThanOrEqual(answered + failed);
  }, 60_000);

  // Runs last: it kills a second instance.
  it('settles a streamed answer cut by a killed instance through its lease: the stored text kept and charged once', async () => {
    onTestFailed(showOutput);
    const alive = cluster!.instances.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
    // One instance to hold the stream and die, at least one more to settle the turn.
    expect(alive.length).toBeGreaterThanOrEqual(2);
    const holder = alive[alive.length - 1]!;
    const m = await api.member(5);
    // Straight to the instance, not through HAProxy, so the test knows which one holds the answer.
    const res = await fetch(`${holder.url}/api/chat/conversations/${m.conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: '[fake:delay=200] [fake:repeat=3] cut by a crash', stream: true }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!received.includes('event: message')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    expect(received).toContain('event: message');

    const db = openDatabase({ databaseUrl: database.url, dataDir });
    try {
      const answerRow = () =>
        db.db
          .selectFrom('messages')
          .select(['id', 'status', 'content'])
          .where('conversation_id', '=', m.conversationId)
          .where('role', '=', 'assistant')
          .executeTakeFirst();
      // The answer's text is written about once a second while it streams: kill once some is stored.
      let before = await answerRow();
      for (const deadline = Date.now() + 10_000; !before?.content && Date.now() < deadline;) {
        await sleep(100);
        before = await answerRow();
      }
      expect(before).toMatchObject({ status: 'streaming', content: expect.stringMatching(/./) as unknown });
      const exited = new Promise((r) => holder.child.once('exit', r));
      holder.child.kill('SIGKILL');
      await exited;
      await reader.cancel().catch(() => undefined);

      // Settled by a surviving instance once the lease runs out (3 s) and its next sweep comes (1.5 s).
      let after = await answerRow();
      for (const deadline = Date.now() + 15_000; after?.status === 'streaming' && Date.now() < deadline;) {
        await sleep(250);
        after = await answerRow();
      }
      // Kept as an interrupted answer, with at least the text stored before the kill.
      const upstream = fake.requests.find((r) => r.lastUserText.includes('cut by a crash'))!;
      const full = fakeAnswer(upstream.lastUserText, { repeat: 3 });
      expect(after?.status).toBe('error');
      expect(after!.content.length).toBeGreaterThanOrEqual(before!.content.length);
      expect(full.startsWith(after!.content)).toBe(true);
      expect(after!.content.length).toBeLessThan(full.length);

      // Charged exactly once, never refunded, and the balance is the ledger's sum.
      const entries = await db.db
        .selectFrom('credit_transactions')
        .select('transaction_type')
        .where('reference_id', '=', before!.id)
        .execute();
      expect(countBy(entries.map((e) => e.transaction_type))).toEqual({ chat_consume: 1 });
      const user = await db.db
        .selectFrom('users')
        .select(['credits_quota', 'credits_used'])
        .where('id', '=', m.id)
        .executeTakeFirstOrThrow();
      expect(await new CreditsRepo(db.db).ledgerSum(m.id)).toBe(user.credits_quota - user.credits_used);
    } finally {
      await db.close();
    }
  }, 30_000);
});
