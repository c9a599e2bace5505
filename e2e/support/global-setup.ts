import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeUpstream } from '../../apps/server/test/fake-upstream.js';
import { startMailSink } from './mail-sink.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN = { email: 'admin@example.com', password: 'Admin12345' };
/** The API key every e2e model sends to the fake upstream. */
export const FAKE_API_KEY = 'fake-key';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitForReady(url: string, server: ChildProcess, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready');
}

/**
 * Starts a real SMTP sink, the fake OpenAI-compatible upstream (in this process) and the
 * real server (fresh SQLite data dir, built web app). The chat models are created before
 * the server starts (seed-models.ts); the server seeds the default model itself from
 * OPENAI_API_KEY / OPENAI_BASE_URL. Workers read E2E_* variables: the base URL, the
 * folder where mails land, the data dir and the fake upstream's origin (for /__stats).
 */
export default async function globalSetup() {
  const tmp = path.join(root, 'e2e/.tmp');
  const dataDir = path.join(tmp, `data-${Date.now()}`);
  const mailDir = path.join(tmp, `mail-${Date.now()}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const sink = await startMailSink(mailDir);
  const fake = await startFakeUpstream();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    // Every spec signs in from 127.0.0.1; widen the per-IP limits accordingly.
    RATE_LIMIT_SCALE: '20',
    OPENAI_API_KEY: FAKE_API_KEY,
    OPENAI_BASE_URL: fake.url,
  };
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/support/seed-models.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (seeded.status !== 0) {
    await fake.close();
    await sink.close();
    throw new Error(`seeding the e2e models failed (exit ${seeded.status})`);
  }
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
  });
  await waitForReady(baseUrl, server, 60_000);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_FAKE_URL = `http://127.0.0.1:${fake.port}`;
  return async () => {
    server.kill('SIGTERM');
    // The server stores answers still streaming before it exits; give it a moment, not forever.
    await new Promise<void>((resolve) => {
      if (server.exitCode !== null) return resolve();
      const timer = setTimeout(resolve, 10_000);
      server.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await fake.close();
    await sink.close();
  };
}
