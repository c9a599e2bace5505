import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRaw, listenLocally, sleep, stopServer, trickle } from '../../../test/raw-http.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import {
  BODY_IDLE_TIMEOUT_MS,
  BODY_RATE_GRACE_MS,
  HEADERS_TIMEOUT_MS,
  type HttpTimeouts,
  KEEP_ALIVE_TIMEOUT_MS,
  LISTEN_BACKLOG,
  MIN_BODY_BYTES_PER_SECOND,
  REQUEST_TIMEOUT_MS,
  TIMEOUT_CHECK_INTERVAL_MS,
  applyHttpServerSettings,
} from './http-server-settings.js';

/** The server's timeouts scaled down: headers within 400 ms, a kept-alive connection idle up to 3 s. */
const SCALED: HttpTimeouts = {
  keepAliveMs: 3_000,
  headersMs: 400,
  requestMs: 6_000,
  bodyIdleMs: 400,
  bodyRateGraceMs: 1_000,
  minBodyBytesPerSecond: 100,
  checkEveryMs: 50,
};

function scaledServer(): http.Server {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  applyHttpServerSettings(server, { maxConnectionsPerIp: 0, trustProxy: false, timeouts: SCALED });
  return server;
}

describe('HTTP server settings', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('are those of the built app', async () => {
    t = await createTestApp();
    const server = t.app.server;
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect((server as http.Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(
      TIMEOUT_CHECK_INTERVAL_MS,
    );
  });

  it('keep idle connections open past a 60 s proxy idle timeout, but give headers and a stalled body only seconds', () => {
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(15_000);
    expect(BODY_IDLE_TIMEOUT_MS).toBeLessThanOrEqual(15_000);
    // A crawling body is judged after 10 s, at a pace any real link (2G: tens of kbit/s) beats.
    expect(BODY_RATE_GRACE_MS).toBe(10_000);
    expect(MIN_BODY_BYTES_PER_SECOND * 8).toBeLessThanOrEqual(10_000);
    // Holding a socket for the whole request timeout costs real bytes.
    expect((MIN_BODY_BYTES_PER_SECOND * REQUEST_TIMEOUT_MS) / 1000).toBeGreaterThanOrEqual(256 * 1024);
    // Checked often enough that a limit is not overrun by much.
    expect(TIMEOUT_CHECK_INTERVAL_MS).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS / 10);
    expect(LISTEN_BACKLOG).toBeGreaterThan(511);
  });

  it('close a connection whose headers trickle in a byte at a time past the headers timeout', async () => {
    const server = scaledServer();
    try {
      const client = await connectRaw(await listenLocally(server));
      // 40 ms a byte: the headers would take 4 s, ten times the limit.
      void trickle(client.socket, `GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(70)}\r\n\r\n`, 1, 40);
      const elapsed = await client.closed;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
      expect(elapsed).toBeLessThan(2_000);
    } finally {
      await stopServer(server);
    }
  });

  it('close a connection that never sends anything once the headers timeout passes', async () => {
    const server = scaledServer();
    try {
      const client = await connectRaw(await listenLocally(server));
      expect(await client.closed).toBeLessThan(2_000);
    } finally {
      await stopServer(server);
    }
  });

  it('keep a reused connection idle for longer than the headers timeout (only the keep-alive timeout ends it)', async () => {
    const server = scaledServer();
    try {
      const client = await connectRaw(await listenLocally(server));
      client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await sleep(SCALED.headersMs * 3);
      client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await sleep(200);
      expect(client.isClosed()).toBe(false);
      expect(client.received().match(/HTTP\/1\.1 200/g)).toHaveLength(2);
      client.socket.destroy();
    } finally {
      await stopServer(server);
    }
  });

  it('the request timeout bounds receiving a request, not a long streamed answer', async () => {
    // The same setting scaled down: 300 ms to receive a request, an answer streamed for 1.2 s.
    const server = http.createServer({ requestTimeout: 300, connectionsCheckingInterval: 50 }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`data: ${++n}\n\n`);
        if (n === 6) {
          clearInterval(timer);
          res.end();
        }
      }, 200);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(await res.text()).toContain('data: 6');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
