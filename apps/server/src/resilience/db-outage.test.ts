import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adjustCredits, countRows, createUserAsAdmin, ledgerRows } from '../../test/admin-helpers.js';
import { createChatApp, createConversation, eventData, openStream } from '../../test/chat-helpers.js';
import { TcpProxy } from '../../test/tcp-proxy.js';
import { TEST_DATABASE_URL, type TestApp, createTestApp } from '../../test/test-app.js';

/** The app connects under a name of its own, so only its connections are cut. */
function named(url: string, applicationName: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}application_name=${applicationName}`;
}

/** A connection of the test's own (its name differs from the app's, so it is never cut). */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: named(url, 'aip-outage-test') });
  await client.connect();
  return client;
}

async function timed<T>(call: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await call();
  return { res, ms: performance.now() - started };
}

const UNAVAILABLE_EN = 'Service temporarily unavailable, please try again later';

/*
 * The database server closing connections (restart, failover, idle timeout, an
 * administrator's pg_terminate_backend) must neither crash the process nor leave it
 * broken: a request that loses its connection answers 503, the next ones work.
 */
describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL connections closed by the server', () => {
  const appName = `aip-outage-${crypto.randomBytes(6).toString('hex')}`;
  let t: TestApp;
  let admin: pg.Client;
  let token: string;

  beforeAll(async () => {
    ({ t } = await createChatApp({ databaseUrl: (url) => named(url, appName) }));
    // A route that holds a query open, so the test can cut the connection under a request.
    t.app.get('/api/test-only/slow-query', async () => {
      await sql`select pg_sleep(30)`.execute(t.db);
      return { done: true };
    });
    admin = await connect(TEST_DATABASE_URL as string);
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  /** Backends of the app matching `where` (a condition on pg_stat_activity). */
  const backends = async (where = 'true') =>
    (
      await admin.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1 and ${where}`, [
        appName,
      ])
    ).rows.map((r) => r.pid);
  const terminate = (pids: number[]) =>
    admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [pids]);
  /** The first backend of the app matching `where`, once there is one. */
  const waitForBackend = (where: string) =>
    vi.waitFor(
      async () => {
        const [pid] = await backends(where);
        if (pid === undefined) throw new Error(`no backend where ${where}`);
        return pid;
      },
      { timeout: 5000, interval: 20 },
    );

  it('keeps serving after its idle connections are closed', async () => {
    await Promise.all(Array.from({ length: 4 }, () => t.get('/api/auth/me', token)));
    const idle = await backends("state = 'idle'");
    expect(idle.length).toBeGreaterThan(0);
    await terminate(idle);
    await vi.waitFor(async () => expect(await backends(`pid = any('{${idle.join(',')}}'::int[])`)).toEqual([]));
    // The pool hears of each closed connection on its socket; give it a moment to drop them.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 3; i += 1) expect((await t.get('/api/chat/conversations', token)).status).toBe(200);
  });

  it('answers 503 when the connection of a running query is closed, and serves the next request', async () => {
    const pending = t.request('GET', '/api/test-only/slow-query', { lang: 'en-US' });
    await terminate([await waitForBackend("query like '%pg_sleep%' and state = 'active'")]);
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(res.body.message).toBe(UNAVAILABLE_EN);
    expect((await t.get('/api/chat/conversations', token)).status).toBe(200);
  });

  it('leaves no half-written grant behind when the connection is lost inside the transaction', async () => {
    const user = await createUserAsAdmin(t, token, { credits_quota: 10 });
    const before = {
      user: await t.userRow(user.id),
      ledger: await ledgerRows(t, user.id),
      audit: await countRows(t, 'audit_logs'),
    };
    // The grant updates the balance and writes its ledger row, then waits here for the audit head.
    const locker = await connect(t.storage.databaseUrl as string);
    try {
      await locker.query('begin');
      await locker.query('select * from audit_chain_head where id = 1 for update');
      const pending = adjustCredits(t, token, user.id, { operation: 'add', amount: 5, reason: 'outage test' });
      await terminate([await waitForBackend("wait_event_type = 'Lock'")]);
      const res = await pending;
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    const after = await t.userRow(user.id);
    expect(after.credits_quota - after.credits_used).toBe(before.user.credits_quota - before.user.credits_used);
    expect(await ledgerRows(t, user.id)).toEqual(before.ledger);
    expect(await countRows(t, 'audit_logs')).toBe(before.audit);
    expect(await t.ledgerSum(user.id)).toBe(after.credits_quota - after.credits_used);
  });

  it('leaves no half-written chat turn behind when the connection is lost while credits are reserved', async () => {
    const user = await createUserAsAdmin(t, token, { credits_quota: 100 });
    const userToken = (await t.tokensFor(user.email, user.password)).accessToken;
    const conv = await createConversation(t, userToken);
    const messages = () => t.db.selectFrom('messages').selectAll().where('conversation_id', '=', conv.id).execute();
    const before = { user: await t.userRow(user.id), ledger: await ledgerRows(t, user.id) };
    // The reservation's conditional update of the balance waits here for the row lock.
    const locker = await connect(t.storage.databaseUrl as string);
    try {
      await locker.query('begin');
      await locker.query('select id from users where id = $1 for update', [user.id]);
      const pending = t.request('POST', `/api/chat/conversations/${conv.id}/messages`, {
        body: { content: 'hello', stream: true },
        token: userToken,
      });
      await terminate([await waitForBackend("wait_event_type = 'Lock'")]);
      const res = await pending;
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    const after = await t.userRow(user.id);
    expect(after.credits_used).toBe(before.user.credits_used);
    expect(after.credits_quota).toBe(before.user.credits_quota);
    expect(await ledgerRows(t, user.id)).toEqual(before.ledger);
    expect(await messages()).toEqual([]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL that cannot be reached', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL as string);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    t = await createTestApp({
      databaseUrl: (url) => {
        const through = new URL(url);
        through.port = String(proxy.port);
        return through.toString();
      },
    });
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await proxy?.pass();
    await t?.close();
    await proxy?.close();
  });

  const conversations = () => t.request('GET', '/api/chat/conversations', { token, lang: 'en-US' });

  it('answers 503 at once while the database refuses connections; health stays 200', async () => {
    await proxy.refuse();
    const call = await timed(conversations);
    expect(call.res.status).toBe(503);
    expect(call.res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(call.res.body.message).toBe(UNAVAILABLE_EN);
    expect(call.ms).toBeLessThan(2000);
    const ready = await t.get<never>('/api/ready');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({ database: false });
    expect((await t.get('/api/health')).status).toBe(200);
  });

  it('answers 503 within the connect timeout while the database does not answer', async () => {
    await proxy.pass();
    proxy.swallow();
    const call = await timed(conversations);
    expect(call.res.status).toBe(503);
    expect(call.res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(call.ms).toBeLessThan(3500);
  });

  it('reports not ready within seconds while the database stalls on open connections', async () => {
    await proxy.pass();
    // An open connection in the pool, so the check does not need a new one.
    await vi.waitFor(async () => expect((await conversations()).status).toBe(200), { timeout: 5000, interval: 100 });
    proxy.freeze();
    try {
      const ready = await timed(() => t.get<never>('/api/ready'));
      expect(ready.res.status).toBe(503);
      expect(JSON.parse(ready.res.text)).toMatchObject({ database: false });
      expect(ready.ms).toBeLessThan(3500);
    } finally {
      proxy.thaw();
    }
  });

  it('serves again by itself once the database is back', async () => {
    await proxy.pass();
    await vi.waitFor(async () => expect((await conversations()).status).toBe(200), { timeout: 5000, interval: 100 });
    expect((await t.get<never>('/api/ready')).status).toBe(200);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('an answer streaming while the database goes away', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL as string);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    ({ t } = await createChatApp({
      databaseUrl: (url) => {
        const through = new URL(url);
        through.port = String(proxy.port);
        return through.toString();
      },
    }));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await proxy?.pass();
    t?.app.server.closeAllConnections();
    await t?.close();
    await proxy?.close();
  });

  it('ends with 503 SERVICE_UNAVAILABLE, as the HTTP answers do, when the answer cannot be stored', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    const stream = await openStream(t, session.accessToken, conv.id, 'cut by the outage [fake:delay=50]');
    await stream.readUntil((names) => names.includes('message'));
    await proxy.refuse();
    try {
      const events = await stream.readUntil((names) => names.includes('done') || names.includes('error'));
      expect(eventData(events, 'done')).toEqual([]);
      expect(eventData(events, 'error')).toEqual([
        { code: 503, error: 'SERVICE_UNAVAILABLE', message: '服务暂时不可用，请稍后再试' },
      ]);
    } finally {
      await proxy.pass();
    }
  });
});
