import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ServerProcess {
  url: string;
  /** Process id of the server itself (for /proc/<pid>/status). */
  pid: number;
  /** Data dir of this run (fresh unless given); the SQLite file is `app.db` inside. */
  dataDir: string;
  /** Stops the process and deletes the data dir, unless `keepData` (to start again on it). */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** As `npm start` runs it: the compiled server, with the contracts package's compiled build. */
const SERVER_ARGS = ['--conditions=compiled', 'apps/server/dist/main.js'];

/** The bench reads the server's own timings from /metrics, which needs a token. */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';
let built = false;

/** Builds the server once per run when its sources are newer than its build (scripts/server-build.mjs). */
function ensureServerBuild(root: string): void {
  if (built) return;
  const r = spawnSync(process.execPath, ['scripts/server-build.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('server build failed');
  built = true;
}

/**
 * Runs the real server in its own process, as in production (compiled JavaScript), so the load generator in
 * this process does not share its event loop. Fresh SQLite data dir each time, unless
 * `existingDataDir` names one a previous start kept (to seed it while no server runs).
 */
export async function startServer(
  root: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  existingDataDir?: string,
): Promise<ServerProcess> {
  ensureServerBuild(root);
  const port = await freePort();
  const dataDir = existingDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'aip-bench-'));
  // BENCH_SERVER_LOG=<file> appends the server's log (level warn) to that file.
  const log = process.env.BENCH_SERVER_LOG ? fs.openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore';
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every server the bench starts.
  const extraArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...extraArgs, ...nodeArgs, ...SERVER_ARGS], {
    cwd: root,
    stdio: ['ignore', log, 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SCALE: '1000',
      // One load generator stands for a thousand clients: no cap on its connections.
      MAX_CONNECTIONS_PER_IP: '0',
      // Its few users stand for many: each keeps hundreds of answers in progress.
      ANSWERS_IN_PROGRESS_PER_USER: '100000',
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error('server did not start');
    }
    try {
      if ((await fetch(`${url}/api/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid as number,
    dataDir,
    stop: async (opts) => {
      await stopChild(child);
      if (!opts?.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
