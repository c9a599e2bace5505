import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/test-app.js';
import {
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  LISTEN_BACKLOG,
  REQUEST_TIMEOUT_MS,
} from './http-server-settings.js';

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
  });

  it('keep connections open past a 60 s proxy idle timeout, with headers allowed longer still', () => {
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(HEADERS_TIMEOUT_MS).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    expect(LISTEN_BACKLOG).toBeGreaterThan(511);
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
