import { type BenchUser, call, createConversation, inBatches } from './api.js';
import { loadUrl } from './http-load.js';
import { type Row, verdict } from './stats.js';

/**
 * Throughput of GET /api/chat/conversations (one page of 100, authenticated, SQLite)
 * against the bare /api/health route on the same instance, plus /api/auth/me (the cost
 * of authentication alone).
 */
export async function measureConversationsList(o: {
  apiUrl: string;
  user: BenchUser;
  count: number;
  seconds: number;
}): Promise<Row[]> {
  await inBatches(
    Array.from({ length: o.count }, (_, i) => i),
    8,
    (i) => createConversation(o.apiUrl, o.user.token, { title: `Benchmark conversation ${i + 1}` }),
  );
  const page = await call<unknown[]>(o.apiUrl, 'GET', '/api/chat/conversations', undefined, o.user.token);
  if (page.length !== o.count) throw new Error(`expected ${o.count} conversations, got ${page.length}`);

  const auth = { authorization: `Bearer ${o.user.token}` };
  const baseline = await loadUrl(`${o.apiUrl}/api/health`, {}, o.seconds);
  const me = await loadUrl(`${o.apiUrl}/api/auth/me`, auth, o.seconds);
  const list = await loadUrl(`${o.apiUrl}/api/chat/conversations`, auth, o.seconds);
  const pct = (rps: number) => `${((rps / baseline.requestsPerSecond) * 100).toFixed(0)}% of baseline`;
  const errors = (r: typeof baseline) => r.errors + r.non2xx;
  return [
    {
      what: 'GET /api/health (baseline, same instance)',
      result: `${baseline.requestsPerSecond} req/s, p99 ${baseline.p99Ms} ms, errors ${errors(baseline)}`,
      budget: '—',
      met: '—',
      data: { ...baseline },
    },
    {
      what: 'GET /api/auth/me (authenticated, SQLite)',
      result: `${me.requestsPerSecond} req/s (${pct(me.requestsPerSecond)}), p99 ${me.p99Ms} ms, errors ${errors(me)}`,
      budget: '≥ 50% of baseline, no errors',
      met: verdict(me.requestsPerSecond >= 0.5 * baseline.requestsPerSecond && errors(me) === 0),
      data: { ...me },
    },
    {
      what: `GET /api/chat/conversations (${o.count} items, authenticated, SQLite)`,
      result: `${list.requestsPerSecond} req/s (${pct(list.requestsPerSecond)}), p99 ${list.p99Ms} ms, errors ${errors(list)}`,
      // The absolute figure depends on the machine; the share of /api/health does not.
      budget: '≥ 3,000 req/s and ≥ 35% of baseline',
      met: verdict(
        list.requestsPerSecond >= 3000 &&
          list.requestsPerSecond >= 0.35 * baseline.requestsPerSecond &&
          errors(list) === 0,
      ),
      data: { ...list },
    },
  ];
}
