import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchUser, call, createConversation, inBatches } from './api.js';
import { type LoadResult, loadUrl } from './http-load.js';
import { type Row, verdict } from './stats.js';
import { startStaticBody } from './static-body.js';

/** Sums the rounds of one URL's load into one result (rates averaged, worst p99). */
function combined(rounds: LoadResult[]): LoadResult {
  const n = rounds.length;
  const requests = rounds.reduce((s, r) => s + r.requests, 0);
  const cpu = rounds.every((r) => r.cpuPerRequestUs !== undefined)
    ? rounds.reduce((s, r) => s + (r.cpuPerRequestUs as number) * r.requests, 0) / Math.max(1, requests)
    : undefined;
  return {
    requestsPerSecond: Math.round(rounds.reduce((s, r) => s + r.requestsPerSecond, 0) / n),
    p99Ms: Math.max(...rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
    non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
    requests,
    ...(cpu === undefined ? {} : { cpuPerRequestUs: cpu }),
  };
}

const cpuText = (r: LoadResult) =>
  r.cpuPerRequestUs === undefined ? '' : `, CPU ${r.cpuPerRequestUs.toFixed(0)} µs/req`;

/**
 * Throughput of GET /api/chat/conversations (one page of 100, authenticated, SQLite)
 * against its physical floor: the very same response body served from memory by a bare
 * node:http process, loaded the same way, in alternating rounds so that the machine's
 * other load hits both alike. Beside it, for information, /api/health and /api/auth/me
 * (the cost of authentication alone) on the same instance, and the server's CPU time per
 * request.
 */
export async function measureConversationsList(o: {
  root: string;
  apiUrl: string;
  serverPid: number;
  user: BenchUser;
  count: number;
  seconds: number;
  rounds: number;
}): Promise<Row[]> {
  await inBatches(
    Array.from({ length: o.count }, (_, i) => i),
    8,
    (i) => createConversation(o.apiUrl, o.user.token, { title: `Benchmark conversation ${i + 1}` }),
  );
  const page = await call<unknown[]>(o.apiUrl, 'GET', '/api/chat/conversations', undefined, o.user.token);
  if (page.length !== o.count) throw new Error(`expected ${o.count} conversations, got ${page.length}`);

  const auth = { authorization: `Bearer ${o.user.token}` };
  const listUrl = `${o.apiUrl}/api/chat/conversations`;
  const sample = await fetch(listUrl, { headers: auth });
  const bodyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aip-bench-list-')), 'page.json');
  fs.writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
  const bodyBytes = fs.statSync(bodyFile).size;
  const floorServer = await startStaticBody(o.root, bodyFile, sample.headers.get('content-type') ?? 'application/json');
  const floorRounds: LoadResult[] = [];
  const listRounds: LoadResult[] = [];
  let baseline: LoadResult;
  let me: LoadResult;
  try {
    baseline = await loadUrl(`${o.apiUrl}/api/health`, {}, o.seconds, o.serverPid);
    me = await loadUrl(`${o.apiUrl}/api/auth/me`, auth, o.seconds, o.serverPid);
    for (let i = 0; i < o.rounds; i++) {
      floorRounds.push(await loadUrl(floorServer.url, auth, o.seconds, floorServer.pid));
      listRounds.push(await loadUrl(listUrl, auth, o.seconds, o.serverPid));
    }
  } finally {
    await floorServer.stop();
    fs.rmSync(path.dirname(bodyFile), { recursive: true, force: true });
  }
  const floor = combined(floorRounds);
  const list = combined(listRounds);
  const pct = (rps: number) => `${((rps / baseline.requestsPerSecond) * 100).toFixed(0)}% of /api/health`;
  const errors = (r: LoadResult) => r.errors + r.non2xx;
  const share = list.requestsPerSecond / Math.max(1, floor.requestsPerSecond);
  const kb = `${(bodyBytes / 1024).toFixed(1)} KB`;
  return [
    {
      what: 'GET /api/health (baseline, same instance)',
      result: `${baseline.requestsPerSecond} req/s, p99 ${baseline.p99Ms} ms, errors ${errors(baseline)}${cpuText(baseline)}`,
      budget: '—',
      met: '—',
      data: { ...baseline },
    },
    {
      what: 'GET /api/auth/me (authenticated, SQLite)',
      result:
        `${me.requestsPerSecond} req/s (${pct(me.requestsPerSecond)}), p99 ${me.p99Ms} ms, ` +
        `errors ${errors(me)}${cpuText(me)}`,
      budget: '≥ 50% of /api/health, no errors',
      met: verdict(me.requestsPerSecond >= 0.5 * baseline.requestsPerSecond && errors(me) === 0),
      data: { ...me },
    },
    {
      what: `the same ${kb} list body served from memory by a bare node:http process (floor)`,
      result: `${floor.requestsPerSecond} req/s, p99 ${floor.p99Ms} ms${cpuText(floor)} (${o.rounds} rounds of ${o.seconds} s)`,
      budget: '—',
      met: '—',
      data: { ...floor, bodyBytes, rounds: floorRounds },
    },
    {
      what: `GET /api/chat/conversations (${o.count} items, authenticated, SQLite)`,
      result:
        `${list.requestsPerSecond} req/s = ${share.toFixed(2)}× the floor (${pct(list.requestsPerSecond)}), ` +
        `p99 ${list.p99Ms} ms, errors ${errors(list)}${cpuText(list)} (${o.rounds} rounds alternating with the floor's)`,
      // The absolute figure depends on the machine and its other load; the share of the floor much less.
      budget: '≥ 0.5× the floor, no errors',
      met: verdict(share >= 0.5 && errors(list) === 0),
      data: { ...list, floorShare: share, rounds: listRounds },
    },
  ];
}
