import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RawClient, connectRaw, listenLocally, sleep, stopServer } from '../../../test/raw-http.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { capConnectionsPerAddress, exemptProxies } from './connection-cap.js';

/** Sends a request on an open connection and resolves with the start of the answer. */
async function ask(client: RawClient): Promise<string> {
  const before = client.received().length;
  client.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
  for (let i = 0; i < 100 && client.received().length === before && !client.isClosed(); i++) await sleep(20);
  return client.received().slice(before, before + 12);
}

describe('connections per address', () => {
  let server: http.Server | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    if (server) await stopServer(server);
    server = undefined;
    await t?.close();
    t = undefined;
  });

  it('closes at once a connection over the cap of the built app, and accepts one again when another ends', async () => {
    t = await createTestApp({ config: { maxConnectionsPerIp: 3 } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const held = [await connectRaw(port), await connectRaw(port), await connectRaw(port)];

    const over = await connectRaw(port);
    await over.closed;
    expect(over.received()).toBe('');
    for (const client of held) expect(await ask(client)).toBe('HTTP/1.1 200');

    held[0]?.socket.destroy();
    await held[0]?.closed;
    // The server sees the close a moment after the client.
    await sleep(100);
    const again = await connectRaw(port);
    expect(await ask(again)).toBe('HTTP/1.1 200');
    for (const client of [...held, again]) client.socket.destroy();
  });

  it('does not cap the addresses exempted (the proxies in front)', async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    capConnectionsPerAddress(server, 1, (address) => address === '127.0.0.1');
    const port = await listenLocally(server);
    const clients = [await connectRaw(port), await connectRaw(port), await connectRaw(port)];
    for (const client of clients) expect(await ask(client)).toBe('HTTP/1.1 200');
  });

  it('exempts the proxies trusted by address; a hop count or `true` leaves every peer uncapped', () => {
    expect(exemptProxies(false)?.('127.0.0.1')).toBe(false);
    expect(exemptProxies(0)?.('127.0.0.1')).toBe(false);
    expect(exemptProxies(1)).toBeUndefined();
    expect(exemptProxies(true)).toBeUndefined();
    const listed = exemptProxies(['10.0.0.0/8', 'loopback']);
    expect(listed?.('10.1.2.3')).toBe(true);
    expect(listed?.('::ffff:10.1.2.3')).toBe(true);
    expect(listed?.('::1')).toBe(true);
    expect(listed?.('192.0.2.7')).toBe(false);
  });
});
