import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  HAPROXY_TEMPLATE,
  findHaproxy,
  freePort,
  renderHaproxyConfig,
  stopChild,
} from '../../../../scripts/cluster.mjs';

const HAPROXY = findHaproxy();

/*
 * deploy/haproxy.cfg takes an instance out when `/api/ready` fails. Redis going away makes
 * every instance unready at the same moment, while each still serves (limits counted
 * in-process): the configuration must then fall back to the instances that are alive
 * instead of refusing every request. An instance stand-in answers ready 503, health 200.
 */
describe.skipIf(!HAPROXY)(`HAProxy with no instance ready${HAPROXY ? '' : ' (skipped: needs haproxy)'}`, () => {
  let haproxy: ChildProcess | undefined;
  let instance: http.Server | undefined;
  afterAll(async () => {
    if (haproxy) await stopChild(haproxy);
    await new Promise<void>((resolve) => (instance ? instance.close(() => resolve()) : resolve()));
  });

  it('keeps sending requests to the instances that are alive', async () => {
    let readyChecks = 0;
    let served = 0;
    instance = http.createServer((req, res) => {
      if (req.url === '/api/ready') {
        readyChecks += 1;
        return void res.writeHead(503).end('{"status":"not_ready"}');
      }
      if (req.url !== '/api/health') served += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => instance?.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(instance.address() as AddressInfo).port}`;

    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-haproxy-'));
    const configFile = path.join(dir, 'haproxy.cfg');
    const template = fs.readFileSync(HAPROXY_TEMPLATE, 'utf8');
    fs.writeFileSync(
      configFile,
      renderHaproxyConfig(template, { bind: `127.0.0.1:${port}`, servers: [{ name: 'one', address }] }),
    );
    haproxy = spawn(HAPROXY as string, ['-db', '-f', configFile], { stdio: 'ignore' });

    // Two failed checks (2 s apart) take the instance out of the ready pool; the third shows it is out.
    const deadline = Date.now() + 20_000;
    while (readyChecks < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(readyChecks).toBeGreaterThanOrEqual(3);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`http://127.0.0.1:${port}/api/auth/me`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(served).toBe(5);
  });
});
