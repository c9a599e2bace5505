#!/usr/bin/env node
// `npm run cluster`: several instances of the compiled server on one PostgreSQL database,
// one Redis and one data dir, behind HAProxy configured from deploy/haproxy.cfg — the
// production topology on one machine. Ctrl-C stops everything. The functions are exported
// for the test that kills an instance under load.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_NODE_ARGS, ensureServerBuild } from './server-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const HAPROXY_TEMPLATE = path.join(root, 'deploy/haproxy.cfg');
/** How `npm start` runs the server: compiled JavaScript. */
export const COMPILED_SERVER = [...SERVER_NODE_ARGS, 'apps/server/dist/main.js'];

/** The HAProxy binary (Debian puts it in /usr/sbin, which is not on every user's PATH), or undefined. */
export function findHaproxy() {
  return ['haproxy', '/usr/sbin/haproxy'].find((bin) => !spawnSync(bin, ['-v']).error);
}

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The local HAProxy configuration: the template with its frontend `bind` line and each
 * backend's block of `server` lines replaced, without the global lines that need root (chroot,
 * user, group, and a `maxconn` beyond the calling user's file limit: HAProxy then sizes it
 * from that limit), and logging only notices (instances going down and up), not every request.
 */
export function renderHaproxyConfig(template, { bind, servers }) {
  const out = [];
  let bound = false;
  let serversWritten = false;
  let inServerBlock = false;
  for (const line of template.split('\n')) {
    const isServer = /^\s*server\s/.test(line);
    const startsBlock = isServer && !inServerBlock;
    inServerBlock = isServer;
    if (/^\s*(chroot|user|group|maxconn)\s/.test(line)) continue;
    if (/^\s*log stdout\b/.test(line)) {
      out.push('    log stdout format raw local0 notice');
    } else if (/^\s*bind\s/.test(line) && !bound) {
      out.push(`    bind ${bind}`);
      bound = true;
    } else if (isServer) {
      if (startsBlock) for (const s of servers) out.push(`    server ${s.name} ${s.address}`);
      serversWritten = true;
    } else {
      out.push(line);
    }
  }
  if (!bound || !serversWritten) throw new Error('the HAProxy template needs a `bind` line and `server` lines');
  return out.join('\n');
}

/** Creates the database of a PostgreSQL URL when it does not exist yet (through the `postgres` database). */
export async function ensureDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL names no database');
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replaceAll('"', '""')}"`);
    return found.rowCount === 0;
  } finally {
    await client.end();
  }
}

/**
 * APP_SECRET for every instance: the data dir's `secret.key` (the file a single server
 * would generate), created here once, before any instance starts, so they cannot each
 * generate their own.
 */
export function readOrCreateSecret(dataDir) {
  const file = path.join(dataDir, 'secret.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** Passes every output line of a child to `log`, prefixed with its name. */
function forwardOutput(child, name, log) {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) readline.createInterface({ input: stream }).on('line', (line) => log(`[${name}] ${line}`));
  }
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
export function stopChild(child, graceMs = 10_000) {
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

/** Polls `url` until it answers 200; fails early when the process behind it exits. */
export async function waitForOk(url, child, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${url}: the process exited (${child.exitCode ?? child.signalCode}) before answering`);
    }
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Starts `size` instances at once (they migrate and bootstrap together on an empty
 * database) on free ports of 127.0.0.1, then HAProxy on `port` in front of them.
 * `serverCommand` is the node arguments of an instance (the compiled server by default).
 */
export async function startCluster({
  size = 3,
  port = 8080,
  bindAddress = '',
  databaseUrl,
  redisUrl,
  redisPrefix = 'aip-cluster:',
  appSecret,
  dataDir,
  env = {},
  serverCommand = COMPILED_SERVER,
  haproxyBin = 'haproxy',
  log = (line) => console.log(line),
}) {
  const children = [];
  const stop = async () => {
    await Promise.all(children.map((c) => stopChild(c)));
  };
  try {
    const instances = [];
    for (let i = 1; i <= size; i += 1) {
      const name = `app${i}`;
      const instancePort = await freePort();
      const child = spawn(process.execPath, serverCommand, {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          ...process.env,
          ...env,
          HOST: '127.0.0.1',
          PORT: String(instancePort),
          DATABASE_URL: databaseUrl,
          REDIS_URL: redisUrl,
          REDIS_PREFIX: redisPrefix,
          APP_SECRET: appSecret,
          DATA_DIR: dataDir,
          // Exactly one proxy (HAProxy) in front: the client address is its X-Forwarded-For entry.
          TRUST_PROXY: '1',
        },
      });
      children.push(child);
      forwardOutput(child, name, log);
      instances.push({ name, port: instancePort, url: `http://127.0.0.1:${instancePort}`, child });
    }
    await Promise.all(instances.map((s) => waitForOk(`${s.url}/api/ready`, s.child)));

    const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-haproxy-'));
    const configFile = path.join(configDir, 'haproxy.cfg');
    const servers = instances.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` }));
    const config = renderHaproxyConfig(fs.readFileSync(HAPROXY_TEMPLATE, 'utf8'), {
      bind: `${bindAddress}:${port}`,
      servers,
    });
    fs.writeFileSync(configFile, config);
    // -db: stay in the foreground, so it stops with us.
    const haproxy = spawn(haproxyBin, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(haproxy);
    forwardOutput(haproxy, 'haproxy', log);
    const url = `http://127.0.0.1:${port}`;
    await new Promise((resolve, reject) => {
      haproxy.once('spawn', resolve);
      haproxy.once('error', reject);
    });
    await waitForOk(`${url}/api/ready`, haproxy, 15_000);
    return {
      url,
      instances,
      haproxy: { child: haproxy, configFile },
      stop: async () => {
        await stop();
        fs.rmSync(configDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main() {
  const envFile = path.join(root, '.env');
  if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  const size = Number(process.env.CLUSTER_SIZE ?? 3);
  const port = Number(process.env.CLUSTER_PORT ?? 8080);
  if (!Number.isInteger(size) || size < 1 || size > 32) throw new Error('CLUSTER_SIZE must be 1 to 32');
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('CLUSTER_PORT must be a TCP port');
  const haproxyBin = findHaproxy();
  if (!haproxyBin) throw new Error('HAProxy is not installed (Debian: apt-get install haproxy)');
  // Several instances need one shared database: PostgreSQL, in a database of its own by default.
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/aiplatform_cluster';
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('DATABASE_URL must be a PostgreSQL URL');
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const dataDir = path.resolve(root, process.env.DATA_DIR || 'data/cluster');
  if (!ensureServerBuild(root)) process.exit(1);
  if (await ensureDatabase(databaseUrl)) console.log(`Created the database ${new URL(databaseUrl).pathname.slice(1)}.`);
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    console.log('The web app is not built (npm run build): only the API is served.');
  }

  const cluster = await startCluster({
    size,
    port,
    databaseUrl,
    redisUrl,
    redisPrefix: process.env.REDIS_PREFIX || 'aip-cluster:',
    appSecret: process.env.APP_SECRET || readOrCreateSecret(dataDir),
    dataDir,
    haproxyBin,
  });
  const list = cluster.instances.map((s) => `${s.name} 127.0.0.1:${s.port}`).join(', ');
  console.log(`\n  AI Platform: ${size} instance(s) behind HAProxy at http://localhost:${port}`);
  console.log(`  instances: ${list}; data: ${dataDir}; Ctrl-C stops all.\n`);

  let stopping = false;
  const stopAll = async (code) => {
    if (stopping) return;
    stopping = true;
    await cluster.stop();
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void stopAll(0));
  for (const s of cluster.instances) {
    s.child.on('exit', (code, signal) => {
      if (!stopping) console.log(`[${s.name}] exited (${code ?? signal}); HAProxy sends its requests to the others.`);
    });
  }
  cluster.haproxy.child.on('exit', (code) => {
    if (!stopping) console.log(`[haproxy] exited (${code}); stopping the instances.`);
    void stopAll(1);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
