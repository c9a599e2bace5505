import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRaw, listenLocally, sleep, stopServer, trickle } from '../../../test/raw-http.js';
import { type HttpTimeouts, applyHttpServerSettings } from './http-server-settings.js';

/**
 * The server's timeouts scaled down: a body may pause 300 ms, must arrive at 100 bytes/s
 * on average from 1 s on, and a request may take 6 s to arrive.
 */
const SCALED: HttpTimeouts = {
  keepAliveMs: 5_000,
  headersMs: 2_000,
  requestMs: 6_000,
  bodyIdleMs: 300,
  bodyRateGraceMs: 1_000,
  minBodyBytesPerSecond: 100,
  checkEveryMs: 50,
};

/** Reads the whole body, then answers its length (or streams heartbeats, for `/stream`). */
function bodyServer(): http.Server {
  const server = http.createServer((req, res) => {
    let length = 0;
    req.on('data', (chunk: Buffer) => (length += chunk.length));
    req.on('end', () => {
      if (req.url !== '/stream') {
        res.end(`received ${length}`);
        return;
      }
      // A streamed answer after a small body: idle but for heartbeats, well past the body window.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let beats = 0;
      const timer = setInterval(() => {
        res.write(': heartbeat\n\n');
        if (++beats === 8) {
          clearInterval(timer);
          res.end('data: done\n\n');
        }
      }, 200);
    });
  });
  applyHttpServerSettings(server, { maxConnectionsPerIp: 0, trustProxy: false, timeouts: SCALED });
  return server;
}

describe('request body watchdog', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    if (server) await stopServer(server);
    server = undefined;
  });

  it('closes a connection whose announced body stops arriving, long before the request timeout', async () => {
    server = bodyServer();
    const client = await connectRaw(await listenLocally(server));
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n');
    client.socket.write('a'.repeat(10));
    const elapsed = await client.closed;
    expect(elapsed).toBeLessThan(SCALED.requestMs / 2);
    expect(client.received()).toBe('');
  });

  it('lets a slow upload that keeps moving finish, even past the idle window several times over', async () => {
    server = bodyServer();
    const client = await connectRaw(await listenLocally(server));
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\nConnection: close\r\n\r\n');
    // 20 pieces, 100 ms apart: 2 s in all, each pause a third of the window.
    await trickle(client.socket, 'b'.repeat(400), 20, 100);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(client.received()).toContain('received 400');
  });

  it('closes a connection whose body keeps moving but crawls below the minimum rate, once the grace is over', async () => {
    server = bodyServer();
    const client = await connectRaw(await listenLocally(server));
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    // A byte every 200 ms (5 bytes/s): never idle for the 300 ms window, far below 100 bytes/s.
    void trickle(client.socket, 'd'.repeat(1000), 1, 200);
    const elapsed = await client.closed;
    expect(elapsed).toBeGreaterThanOrEqual(SCALED.bodyRateGraceMs);
    expect(elapsed).toBeLessThan(SCALED.requestMs / 2);
    expect(client.received()).toBe('');
  });

  it('judges the rate over the whole body: a fast start buys a slower tail', async () => {
    server = bodyServer();
    const client = await connectRaw(await listenLocally(server));
    client.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 240\r\nConnection: close\r\n\r\n');
    // 200 bytes at once, then 40 more at 20 bytes/s for 2 s: 240 bytes in 2 s, above 100 bytes/s.
    await sleep(50);
    client.socket.write('e'.repeat(200));
    await trickle(client.socket, 'e'.repeat(40), 2, 100);
    await client.closed;
    expect(client.received()).toContain('received 240');
  });

  it('does not cut a streamed answer that stays idle, but for heartbeats, past the body window', async () => {
    server = bodyServer();
    const port = await listenLocally(server);
    const res = await fetch(`http://127.0.0.1:${port}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'a question' }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data: done');
  });

  it('does not count a pause the server itself causes by reading the body late', async () => {
    server = http.createServer((req, res) => {
      // The handler is busy for twice the window before it reads; the client is not at fault.
      setTimeout(() => {
        let length = 0;
        req.on('data', (chunk: Buffer) => (length += chunk.length));
        req.on('end', () => res.end(`received ${length}`));
      }, SCALED.bodyIdleMs * 2);
    });
    applyHttpServerSettings(server, { maxConnectionsPerIp: 0, trustProxy: false, timeouts: SCALED });
    const port = await listenLocally(server);
    const body = 'c'.repeat(4 * 1024 * 1024);
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body });
    expect(await res.text()).toBe(`received ${body.length}`);
  });

  it('stops looking once the body is complete, whatever the answer then takes', async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => void sleep(SCALED.bodyIdleMs * 3).then(() => res.end('late answer')));
    });
    applyHttpServerSettings(server, { maxConnectionsPerIp: 0, trustProxy: false, timeouts: SCALED });
    const port = await listenLocally(server);
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'PUT', body: 'x'.repeat(100) });
    expect(await res.text()).toBe('late answer');
  });
});
