import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { buildConfig, loadConfig, parseTrustProxy, startupWarnings } from './config.js';

describe('configuration', () => {
  it('reads TRUST_PROXY as off, all hops, a hop count or a list of proxies', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('takes defaults from an empty environment and refuses a bad port', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, trustProxy: false, rateLimitScale: 1, redisPrefix: 'aip:' });
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow();
  });

  it('caps connections per address by default and keeps /metrics closed without a token', () => {
    expect(loadConfig({})).toMatchObject({ maxConnectionsPerIp: 256, metricsToken: undefined });
    expect(loadConfig({ MAX_CONNECTIONS_PER_IP: '0' }).maxConnectionsPerIp).toBe(0);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_IP: '-1' })).toThrow();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-metrics-token' }).metricsToken).toBe(
      'a-long-enough-metrics-token',
    );
    // A short token could be guessed.
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow();
  });

  it('reads the answer lease, 30 s by default, and refuses one shorter than three partial writes', () => {
    expect(loadConfig({}).answerLeaseMs).toBe(30_000);
    expect(loadConfig({ ANSWER_LEASE_MS: '3000' }).answerLeaseMs).toBe(3000);
    expect(() => loadConfig({ ANSWER_LEASE_MS: '1000' })).toThrow();
    expect(() => loadConfig({ ANSWER_LEASE_MS: 'soon' })).toThrow();
  });

  it('reads the cap on answers in progress per user, 5 by default', () => {
    expect(loadConfig({}).answersInProgressPerUser).toBe(5);
    expect(loadConfig({ ANSWERS_IN_PROGRESS_PER_USER: '1000' }).answersInProgressPerUser).toBe(1000);
    expect(() => loadConfig({ ANSWERS_IN_PROGRESS_PER_USER: '0' })).toThrow();
  });

  it('warns when TRUST_PROXY trusts by position and HOST also takes direct connections', () => {
    const warned = (host: string, trustProxy: boolean | number | string[]) =>
      startupWarnings({ host, trustProxy }).length > 0;
    for (const host of ['0.0.0.0', '::', '10.0.0.7', 'app.internal']) {
      expect(warned(host, 1), host).toBe(true);
      expect(warned(host, true), host).toBe(true);
      // Proxies listed by address cannot be impersonated by a direct client; off trusts nothing.
      expect(warned(host, ['10.0.0.5']), host).toBe(false);
      expect(warned(host, false), host).toBe(false);
    }
    for (const host of ['127.0.0.1', '127.0.0.53', '::1', '[::1]', 'localhost'])
      expect(warned(host, 2), host).toBe(false);
    expect(startupWarnings({ host: '0.0.0.0', trustProxy: 1 })[0]).toContain(
      "List the proxies' addresses in TRUST_PROXY",
    );
  });

  it('logs that warning when the server is built', async () => {
    const lines: string[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-config-'));
    const build = (host: string) =>
      buildApp({
        config: buildConfig({ dataDir, host, trustProxy: 1, logLevel: 'warn', appSecret: 'a-test-secret-long-enough' }),
        logStream: { write: (line) => void lines.push(line) },
      });
    try {
      await (await build('0.0.0.0')).app.close();
      const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40);
      expect(warnings.filter((w) => w.msg.includes('TRUST_PROXY')).map((w) => w.msg)).toEqual([
        expect.stringMatching(/^TRUST_PROXY=1 trusts X-Forwarded-For by position while HOST=0\.0\.0\.0/),
      ]);
      lines.length = 0;
      await (await build('127.0.0.1')).app.close();
      expect(lines.filter((l) => l.includes('TRUST_PROXY'))).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('reads the free space readiness asks of the data directory, 1024 MB by default', () => {
    expect(loadConfig({}).minFreeDiskMb).toBe(1024);
    expect(loadConfig({ MIN_FREE_DISK_MB: '0' }).minFreeDiskMb).toBe(0);
    expect(() => loadConfig({ MIN_FREE_DISK_MB: '-1' })).toThrow();
    expect(() => loadConfig({ MIN_FREE_DISK_MB: 'lots' })).toThrow();
  });
});
