import crypto from 'node:crypto';
import path from 'node:path';
import { type Cluster, type ClusterOptions, findHaproxy, freePort, startCluster } from '../../../scripts/cluster.mjs';
import { openDatabase } from '../src/db/database.js';
import { CreditsRepo } from '../src/modules/credits/credits.repo.js';

export const HAPROXY = findHaproxy();
export const CLUSTER_ADMIN = { email: 'admin@cluster.test', password: 'Admin#Pass123' };

export interface ClusterMember {
  id: number;
  token: string;
  conversationId: string;
}

/** One request's result under load: what it was, when it started, and its answer (0: none). */
export interface Outcome {
  kind: 'me' | 'conversations' | 'send';
  startedAt: number;
  ms: number;
  status: number;
  error?: string;
}

export function countBy(items: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of items) counts[i] = (counts[i] ?? 0) + 1;
  return counts;
}

/**
 * Three instances from the sources (as every other server test runs: no build needed)
 * behind HAProxy configured from deploy/haproxy.cfg, with a `fake-echo` model added by the
 * administrator (a write with an Idempotency-Key) answering from `upstreamUrl`.
 */
export async function startSourceCluster(
  opts: Pick<ClusterOptions, 'databaseUrl' | 'redisUrl' | 'dataDir' | 'log'> & {
    upstreamUrl: string;
    env?: Record<string, string>;
  },
): Promise<Cluster> {
  const cluster = await startCluster({
    size: 3,
    port: await freePort(),
    bindAddress: '127.0.0.1',
    databaseUrl: opts.databaseUrl,
    redisUrl: opts.redisUrl,
    redisPrefix: `test-${crypto.randomUUID()}:`,
    appSecret: crypto.randomBytes(32).toString('base64url'),
    dataDir: opts.dataDir,
    serverCommand: ['--import', 'tsx', 'apps/server/src/main.ts'],
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: CLUSTER_ADMIN.email,
      ADMIN_PASSWORD: CLUSTER_ADMIN.password,
      RATE_LIMIT_SCALE: '100',
      WEB_DIST_DIR: path.join(opts.dataDir, 'no-web-build'),
      ...opts.env,
    },
    haproxyBin: HAPROXY,
    log: opts.log,
  });
  const client = clusterClient(cluster.url);
  const adminToken = await client.signIn(CLUSTER_ADMIN.email, CLUSTER_ADMIN.password);
  const model = await client.call('POST', '/api/admin/models', {
    token: adminToken,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: {
      name: 'fake-echo',
      provider: 'openai_compatible',
      api_endpoint: opts.upstreamUrl,
      api_key: 'sk-test-cluster',
      credits_per_chat: 1,
    },
  });
  if (model.status !== 201) {
    await cluster.stop();
    throw new Error(`model: ${model.status} ${JSON.stringify(model.data)}`);
  }
  return cluster;
}

/** JSON calls to the cluster through HAProxy, and the members the load tests use. */
export function clusterClient(baseUrl: string) {
  async function call<T>(
    method: string,
    url: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<{ status: number; data: T }> {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const text = await res.text();
    let data: T;
    try {
      data = (JSON.parse(text) as { data: T }).data;
    } catch {
      data = text as T;
    }
    return { status: res.status, data };
  }

  async function signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
    const res = await call<{ accessToken: string }>('POST', '/api/auth/login', {
      body: { account: email, password },
      headers,
    });
    if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.data)}`);
    return res.data.accessToken;
  }

  /** A new user, signed in, with a conversation with `fake-echo`. */
  async function member(i: number): Promise<ClusterMember> {
    const suffix = crypto.randomBytes(3).toString('hex');
    const email = `load${i}_${suffix}@cluster.test`;
    const password = 'secret123';
    const reg = await call<{ id: number }>('POST', '/api/auth/register', {
      body: { email, username: `load${i}_${suffix}`, password, confirmPassword: password },
    });
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.data)}`);
    const token = await signIn(email, password);
    const conv = await call<{ id: string }>('POST', '/api/chat/conversations', {
      token,
      body: { model_name: 'fake-echo' },
    });
    if (conv.status !== 201) throw new Error(`conversation: ${conv.status} ${JSON.stringify(conv.data)}`);
    return { id: reg.data.id, token, conversationId: conv.data.id };
  }

  return { call, signIn, member };
}

/**
 * Reads the members' credits straight from the database: each balance next to its
 * ledger's sum, and how many chat charges they have in all.
 */
export async function readLedgers(
  databaseUrl: string,
  dataDir: string,
  members: ClusterMember[],
): Promise<{ balances: { id: number; balance: number; ledgerSum: number }[]; charges: number }> {
  const db = openDatabase({ databaseUrl, dataDir });
  try {
    const credits = new CreditsRepo(db.db);
    const balances = [];
    for (const m of members) {
      const user = await db.db
        .selectFrom('users')
        .select(['credits_quota', 'credits_used'])
        .where('id', '=', m.id)
        .executeTakeFirstOrThrow();
      balances.push({
        id: m.id,
        balance: user.credits_quota - user.credits_used,
        ledgerSum: await credits.ledgerSum(m.id),
      });
    }
    const charged = await db.db
      .selectFrom('credit_transactions')
      .where(
        'user_id',
        'in',
        members.map((m) => m.id),
      )
      .where('transaction_type', '=', 'chat_consume')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return { balances, charges: Number(charged.n) };
  } finally {
    await db.close();
  }
}

/** Runs one request and adds its outcome (status 0 and the error when nothing came back). */
export async function record(
  outcomes: Outcome[],
  kind: Outcome['kind'],
  run: () => Promise<{ status: number }>,
): Promise<void> {
  const startedAt = Date.now();
  try {
    const { status } = await run();
    outcomes.push({ kind, startedAt, ms: Date.now() - startedAt, status });
  } catch (err) {
    outcomes.push({ kind, startedAt, ms: Date.now() - startedAt, status: 0, error: String(err) });
  }
}
