import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLite as Database } from '../db/sqlite-driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse } from '../../test/chat-helpers.js';
import { type FakeUpstream, startFakeUpstream } from '../../test/fake-upstream.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN_EMAIL = 'admin@drain.test';
const ADMIN_PASSWORD = 'Admin#Drain123';
/** Built into the server from OPENAI_API_KEY / OPENAI_BASE_URL. */
const SEEDED_MODEL = 'gpt-4.1-mini-op';

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

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/*
 * An orchestrator stops a process with SIGTERM and kills it some seconds later: the server
 * stops its answers in progress, stores and charges what was produced, ends their streams
 * with a `done` event, closes idle keep-alive connections, and exits well before the kill.
 */
describe('SIGTERM on a real server process', () => {
  let fake: FakeUpstream;
  let dataDir: string;
  let child: ChildProcess;
  let base: string;
  let output = '';
  beforeAll(async () => {
    fake = await startFakeUpstream();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-sigterm-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        OPENAI_API_KEY: 'sk-x',
        OPENAI_BASE_URL: fake.url,
        RATE_LIMIT_SCALE: '1000',
        MAX_CONNECTIONS_PER_IP: '0',
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const started = Date.now();
    while (!output.includes('is running at')) {
      if (child.exitCode !== null) throw new Error(`server exited at start:\n${output}`);
      if (Date.now() - started > 30_000) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function api<T>(method: string, url: string, body?: unknown, token?: string): Promise<T> {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as { data: T };
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  }

  it('stops and stores the answer in progress, ends its stream, and exits in time', async () => {
    const { accessToken } = await api<{ accessToken: string }>('POST', '/api/auth/login', {
      account: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    const conv = await api<{ id: string }>(
      'POST',
      '/api/chat/conversations',
      { model_name: SEEDED_MODEL },
      accessToken,
    );

    const stream = await fetch(`${base}/api/chat/conversations/${conv.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ content: 'drain me [fake:delay=200] [fake:repeat=5]', stream: true }),
    });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: message')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended early:\n${text}`);
      text += decoder.decode(value, { stream: true });
    }

    // An idle keep-alive connection must not hold the process open.
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${base}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });

    const exit = exited(child);
    const sentAt = Date.now();
    child.kill('SIGTERM');
    for (;;) {
      // A reset after the last event counts as the end: the events already read are what matters.
      const chunk = await reader.read().catch(() => undefined);
      if (!chunk || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    const code = await exit;
    const tookMs = Date.now() - sentAt;
    agent.destroy();
    expect(code, output).toBe(0);
    expect(tookMs).toBeLessThan(10_000);

    const { events } = parseSse(text);
    const last = events.at(-1);
    expect(last?.event).toBe('done');
    expect(last?.data).toMatchObject({ finish_reason: 'stopped' });

    const db = new Database(path.join(dataDir, 'app.db'), { readonly: true });
    try {
      const answer = db
        .prepare(`select id, status, content from messages where conversation_id = ? and role = 'assistant'`)
        .all(conv.id) as { id: string; status: string; content: string }[];
      expect(answer).toHaveLength(1);
      expect(answer[0]!.status).toBe('stopped');
      expect(answer[0]!.content).not.toBe('');
      const ledger = db
        .prepare(`select transaction_type from credit_transactions where conversation_id = ?`)
        .all(conv.id) as { transaction_type: string }[];
      expect(ledger.map((l) => l.transaction_type)).toEqual(['chat_consume']);
    } finally {
      db.close();
    }
  });
});
