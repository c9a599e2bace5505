#!/usr/bin/env node
// `npm test`: every suite in order — server integration on SQLite and on PostgreSQL,
// web unit tests, then the browser tests against the built app — a summary with each
// suite's counts and wall time, and one closing line `N passed, N failed, N skipped`.
// Exit code 1 when anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
let broken = false;
const runStarted = Date.now();

function run(name, cmd, args, opts, readCounts) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts, env: { ...process.env, ...opts.env } });
  let counts;
  try {
    counts = readCounts();
  } catch {
    counts = undefined;
  }
  if (!counts) {
    // A suite that crashed before reporting counts as one failure, never as a pass.
    counts = { passed: 0, failed: 1, skipped: 0 };
    broken = true;
  } else if (r.status !== 0 && counts.failed === 0) {
    counts.failed = 1;
    broken = true;
  }
  for (const k of Object.keys(totals)) totals[k] += counts[k];
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  lines.push(`${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds} s)`);
  for (const f of counts.flaky ?? []) lines.push(`  flaky (counted as failed): ${f}`);
}

function vitestCounts(file) {
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { passed: j.numPassedTests, failed: j.numFailedTests, skipped: j.numPendingTests + (j.numTodoTests ?? 0) };
}

function vitest(name, dir, env = {}) {
  const out = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  run(
    name,
    'npx',
    ['vitest', 'run', '--root', dir, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { env },
    () => vitestCounts(out),
  );
}

/** Titles of the tests Playwright reports as flaky (failed, then passed on retry). */
function flakyTitles(report) {
  const titles = [];
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'flaky') titles.push([...trail, spec.title].filter(Boolean).join(' › '));
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  return titles;
}

vitest('server (SQLite)', 'apps/server', { TEST_DATABASE_URL: '' });
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  vitest('server (PostgreSQL)', 'apps/server', { TEST_DATABASE_URL: pgUrl });
} else {
  console.log('\nTEST_DATABASE_URL is not set: the PostgreSQL run is skipped (CI always sets it).');
  lines.push('server (PostgreSQL): not run — TEST_DATABASE_URL unset');
}
vitest('web unit', 'apps/web');

console.log('\n=== build web app ===');
const buildStarted = Date.now();
const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
const buildSeconds = ((Date.now() - buildStarted) / 1000).toFixed(0);
if (build.status !== 0) {
  totals.failed += 1;
  broken = true;
  lines.push(`web build: failed (${buildSeconds} s)`);
} else {
  lines.push(`web build: ${buildSeconds} s`);
  const out = path.join(tmp, 'e2e.json');
  run(
    'browser (Playwright)',
    'npx',
    ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
    { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out } },
    () => {
      const report = JSON.parse(fs.readFileSync(out, 'utf8'));
      const s = report.stats;
      // A test that passed only on retry is flaky: named in the summary and never counted as passed.
      return { passed: s.expected, failed: s.unexpected + s.flaky, skipped: s.skipped, flaky: flakyTitles(report) };
    },
  );
}

console.log('\n=== summary ===');
for (const l of lines) console.log(l);
console.log(`wall time: ${((Date.now() - runStarted) / 1000).toFixed(0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || broken ? 1 : 0);
