import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadUrl } from './http-load.js';
import { measureLoginBundle } from './login-bundle.js';
import { startServer } from './server-process.js';

/*
 * `npm run bench`: measures against the budgets of DESIGN §10 and writes
 * bench/results/latest.{json,md}. Throughput is reported as a ratio to a baseline
 * measured in the same run (the bare /api/health route), never as a bare number alone.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

async function main() {
  const rows: { what: string; result: string; budget: string; met: string }[] = [];

  const dist = path.join(root, 'apps/web/dist');
  if (fs.existsSync(path.join(dist, 'index.html'))) {
    const b = measureLoginBundle(dist);
    rows.push({
      what: 'web: initial JS for /login (gzip)',
      result: `${(b.gzipBytes / 1024).toFixed(1)} KB`,
      budget: '≤ 250 KB',
      met: b.gzipBytes <= b.budgetBytes ? 'yes' : 'NO',
    });
  } else {
    rows.push({
      what: 'web: initial JS for /login (gzip)',
      result: 'not built (run npm run build)',
      budget: '≤ 250 KB',
      met: '—',
    });
  }

  const server = await startServer(root, { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'bench-password' });
  const address = server.url;
  const login = await fetch(`${address}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin@example.com', password: 'bench-password' }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;

  const baseline = await loadUrl(`${address}/api/health`, {}, seconds);
  const me = await loadUrl(`${address}/api/auth/me`, { authorization: `Bearer ${token}` }, seconds);
  rows.push({
    what: 'GET /api/health (baseline, SQLite)',
    result: `${baseline.requestsPerSecond} req/s, p99 ${baseline.p99Ms} ms, errors ${baseline.errors + baseline.non2xx}`,
    budget: '—',
    met: '—',
  });
  rows.push({
    what: 'GET /api/auth/me (authenticated, SQLite)',
    result: `${me.requestsPerSecond} req/s (${((me.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}% of baseline), p99 ${me.p99Ms} ms, errors ${me.errors + me.non2xx}`,
    budget: 'no errors',
    met: me.errors + me.non2xx === 0 ? 'yes' : 'NO',
  });
  await server.stop();

  const table = [
    '| what | result | budget | met |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.what} | ${r.result} | ${r.budget} | ${r.met} |`),
  ].join('\n');
  console.log(table);
  fs.mkdirSync(path.join(here, '../results'), { recursive: true });
  const stamp = { date: new Date().toISOString(), cpus: os.cpus().length, node: process.version, seconds };
  fs.writeFileSync(path.join(here, '../results/latest.json'), JSON.stringify({ ...stamp, rows }, null, 2));
  fs.writeFileSync(
    path.join(here, '../results/latest.md'),
    `# Benchmark results\n\n${stamp.date}, ${stamp.cpus} cores, Node ${stamp.node}\n\n${table}\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
