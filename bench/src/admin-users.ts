import http from 'node:http';
import { login } from './api.js';
import { ADMIN, SEARCH_FEW, SEARCH_NONE, type SeedResult, seedUsers } from './admin-users-seed.js';
import { openAppDb } from './db.js';
import { procStatusKb } from './proc-stats.js';
import { BENCH_METRICS_TOKEN, type ServerProcess, startServer } from './server-process.js';
import { median, ms, percentile, type Row, verdict } from './stats.js';

/*
 * The admin user list and its CSV export over a large user table. The users are written
 * straight into the SQLite file while no server runs (one transaction, one password hash
 * shared by every row), then a fresh server process is started on that file and the
 * super administrator signs in through the API.
 */

export interface AdminBench {
  server: ServerProcess;
  token: string;
  seed: SeedResult;
  /** Users the list can see (live accounts, the administrator included). */
  liveUsers: number;
}

/**
 * First start creates the schema and the super administrator; the users are then
 * written while no server runs, and a fresh process serves them.
 */
export async function startSeededServer(root: string, count: number): Promise<AdminBench> {
  const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
  const first = await startServer(root, env);
  await first.stop({ keepData: true });
  const db = openAppDb(first.dataDir);
  let seed: SeedResult;
  let liveUsers: number;
  try {
    seed = seedUsers(db, count);
    liveUsers = (db.prepare('select count(*) as n from users where deleted_at is null').get() as { n: number }).n;
  } finally {
    db.close();
  }
  const server = await startServer(root, env, [], first.dataDir);
  const session = await login(server.url, ADMIN.email, ADMIN.password);
  return { server, token: session.accessToken as string, seed, liveUsers };
}

interface Timed {
  ms: number;
  status: number;
  body: string;
}

/** One GET on a kept-alive connection, timed from the request to the last byte. */
function timedGet(url: string, agent: http.Agent, token?: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          ms: performance.now() - started,
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Sum and count of the server's own request durations (fastify's elapsed time) on one route. */
export async function routeTiming(base: string, route: string): Promise<{ sum: number; count: number }> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
  const text = await res.text();
  const out = { sum: 0, count: 0 };
  for (const line of text.split('\n')) {
    const m = /^http_request_duration_seconds_(sum|count)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || !(m[2] as string).includes(`route="${route}"`)) continue;
    out[m[1] as 'sum' | 'count'] += Number(m[3]);
  }
  return out;
}

interface Sampled {
  clientMedian: number;
  clientP95: number;
  /** Mean of the server's own timing over the same requests. */
  serverMean: number;
  total: number | undefined;
  items: number | undefined;
}

async function sample(base: string, path: string, route: string, token: string | undefined, n: number, warmup: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    let last: Timed | undefined;
    for (let i = 0; i < warmup; i++) last = await timedGet(`${base}${path}`, agent, token);
    const before = await routeTiming(base, route);
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      last = await timedGet(`${base}${path}`, agent, token);
      if (last.status !== 200) throw new Error(`GET ${path}: ${last.status} ${last.body.slice(0, 200)}`);
      times.push(last.ms);
    }
    const after = await routeTiming(base, route);
    const count = after.count - before.count;
    const body = JSON.parse(last?.body ?? '{}') as { data?: unknown[]; pagination?: { total: number } };
    return {
      clientMedian: median(times),
      clientP95: percentile(times, 95),
      serverMean: count > 0 ? ((after.sum - before.sum) / count) * 1000 : Number.NaN,
      total: body.pagination?.total,
      items: Array.isArray(body.data) ? body.data.length : undefined,
    } satisfies Sampled;
  } finally {
    agent.destroy();
  }
}

/**
 * Sequential GET /api/admin/users requests (one connection, `samples` each after a short
 * warm-up) for six typical screens, beside /api/health measured the same way.
 * The verdict uses the client-side p95, which includes the loopback round trip and so
 * bounds the server time from above; the server's own mean (from /metrics) is shown too.
 */
export async function measureAdminUserList(a: AdminBench, o: { samples: number; budgetMs: number }): Promise<Row[]> {
  const base = a.server.url;
  const route = '/api/admin/users';
  const health = await sample(base, '/api/health', '/api/health', undefined, o.samples, 10);
  const deepPage = Math.min(2000, Math.max(1, Math.ceil(a.liveUsers / 20)));
  const screens = [
    { name: 'first page, unfiltered', query: 'page=1&limit=20' },
    { name: `search "${SEARCH_FEW}" (a few hundred matches)`, query: `page=1&limit=20&search=${SEARCH_FEW}` },
    { name: 'search with no match', query: `page=1&limit=20&search=${SEARCH_NONE}` },
    { name: 'group + status filter', query: `page=1&limit=20&group_id=${a.seed.groupId}&status=active` },
    { name: 'sorted by credits remaining', query: 'page=1&limit=20&sort=-credits_remaining' },
    { name: `page ${deepPage} (offset ${(deepPage - 1) * 20})`, query: `page=${deepPage}&limit=20` },
  ];
  const n = a.liveUsers.toLocaleString('en-US');
  const rows: Row[] = [
    {
      what: `admin users: GET /api/health (baseline, same instance, sequential)`,
      result: `median ${ms(health.clientMedian)}, p95 ${ms(health.clientP95)} (server ${ms(health.serverMean)} mean)`,
      budget: '—',
      met: '—',
      data: { ...health },
    },
  ];
  for (const s of screens) {
    const r = await sample(base, `${route}?${s.query}`, route, a.token, o.samples, 5);
    if (s === screens[0] && r.total !== a.liveUsers)
      throw new Error(`the list shows ${r.total} users, not ${a.liveUsers}`);
    rows.push({
      what: `admin users over ${n} users: ${s.name}`,
      result:
        `median ${ms(r.clientMedian)}, p95 ${ms(r.clientP95)}, server ${ms(r.serverMean)} mean ` +
        `(×${(r.clientMedian / health.clientMedian).toFixed(0)} of /api/health); ${r.total ?? '?'} matches`,
      budget: `≤ ${o.budgetMs} ms`,
      met: verdict(r.clientP95 <= o.budgetMs && r.serverMean <= o.budgetMs),
      data: { query: s.query, samples: o.samples, ...r },
    });
  }
  return rows;
}

/**
 * Streams GET /api/admin/users/export.csv to the end without keeping it, sampling the
 * server's RSS every 20 ms beside the rows received so far. Memory must not grow with
 * the rows: RSS saws up and down as garbage is made and collected, so the verdict compares
 * its lowest point over the second half of the rows with its level at 10% of them.
 */
export async function measureAdminExport(a: AdminBench, o: { flatMb: number }): Promise<Row[]> {
  const pid = a.server.pid;
  // Let the heap settle after the list requests so "before" is the idle figure.
  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = procStatusKb(pid, 'VmRSS');
  let rows = -1; // the header line
  let bytes = 0;
  const trace: { rows: number; rssKb: number }[] = [];
  const timer = setInterval(() => trace.push({ rows, rssKb: procStatusKb(pid, 'VmRSS') }), 20);
  const started = performance.now();
  let firstByte = 0;
  const before = await routeTiming(a.server.url, '/api/admin/users/export.csv');
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.get(
      `${a.server.url}/api/admin/users/export.csv`,
      { headers: { authorization: `Bearer ${a.token}` } },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          if (firstByte === 0) firstByte = performance.now() - started;
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) rows++;
        });
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  trace.push({ rows, rssKb: procStatusKb(pid, 'VmRSS') });
  const after = await routeTiming(a.server.url, '/api/admin/users/export.csv');
  if (status !== 200) throw new Error(`export answered ${status}`);

  const peakKb = Math.max(...trace.map((t) => t.rssKb));
  const rssAt10 = trace.find((t) => t.rows >= 0.1 * rows)?.rssKb ?? peakKb;
  // What the process still holds once garbage has been collected: the lowest RSS over
  // the second half of the rows. Were the rows accumulated, it would sit far above the 10% mark.
  const floorKb = Math.min(...trace.filter((t) => t.rows >= 0.5 * rows).map((t) => t.rssKb));
  const retainedMb = (floorKb - rssAt10) / 1024;
  const mbOf = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const complete = rows === a.liveUsers;
  return [
    {
      what: `CSV export of ${a.liveUsers.toLocaleString('en-US')} users (streamed)`,
      result:
        `${rows.toLocaleString('en-US')} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(2)} s ` +
        `(${Math.round(rows / seconds).toLocaleString('en-US')} rows/s, first byte ${ms(firstByte, 1)}, ` +
        `server ${((after.sum - before.sum) * 1000).toFixed(0)} ms); server RSS ${mbOf(rssBefore)} before, ` +
        `peak ${mbOf(peakKb)} (garbage between collections); ${mbOf(rssAt10)} at 10% of the rows, ` +
        `lowest over the second half ${mbOf(floorKb)}`,
      budget: `every row; nothing kept per row (RSS over the second half falls back to within ${o.flatMb} MB of the 10% mark)`,
      met: verdict(complete && retainedMb <= o.flatMb),
      data: {
        rows,
        expectedRows: a.liveUsers,
        bytes,
        seconds,
        firstByteMs: firstByte,
        rowsPerSecond: rows / seconds,
        rssBeforeKb: rssBefore,
        rssAt10Kb: rssAt10,
        rssSecondHalfFloorKb: floorKb,
        rssPeakKb: peakKb,
        trace: trace.filter((_, i) => i % 10 === 0),
      },
    },
  ];
}
