import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/fake-upstream.js';
import { AppError } from '../../lib/http/errors.js';
import { discoverModels } from './model-discovery.js';
import { keyHint, maskKey } from './model-key.js';
import { describeFailure, testConnection } from './model-probe.js';

/** A server that accepts connections and never answers, or answers a body larger than any model list. */
async function startOddServer() {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/huge/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      const chunk = `${'{"id":"x"},'.repeat(10_000)}`;
      for (let i = 0; i < 60; i += 1) res.write(chunk);
      res.end('{"id":"y"}]}');
    }
    // Anything else: never answer.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('model probe and discovery', () => {
  let fake: FakeUpstream;
  let odd: Awaited<ReturnType<typeof startOddServer>>;
  beforeAll(async () => {
    fake = await startFakeUpstream();
    odd = await startOddServer();
  });
  afterAll(async () => {
    await odd.close();
    await fake.close();
  });

  it('asks for a single token and reports success with the latency', async () => {
    const r = await testConnection({
      provider: 'openai_compatible',
      modelId: 'probe-one',
      apiKey: 'sk-x',
      endpoint: fake.url,
    });
    expect(r).toMatchObject({ status: 'success', message: 'OK' });
    const seen = fake.requests.find((q) => q.model === 'probe-one');
    expect(seen?.stream).toBe(false);
    expect(seen?.lastUserText).toBe('ping');
  });

  it('gives up after its time limit and says so', async () => {
    const started = Date.now();
    const r = await testConnection(
      { provider: 'openai_compatible', modelId: 'fake-hang', apiKey: undefined, endpoint: fake.url },
      300,
    );
    expect(r).toMatchObject({ status: 'failed', message: 'No answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('discovery gives up after its time limit with 502', async () => {
    const err = await discoverModels({ provider: 'openai', endpoint: `${odd.base}/v1`, apiKey: 'k1234' }, 300).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'UPSTREAM_UNREACHABLE', params: { detail: 'No answer within 300 ms' } });
  });

  it('discovery stops reading an answer too large to be a model list', async () => {
    const err = await discoverModels({ provider: 'openai', endpoint: `${odd.base}/huge/v1`, apiKey: undefined }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'UPSTREAM_UNREACHABLE', params: { detail: 'the answer is not a model list' } });
  });

  it('describes failures with status and root cause, key masked, trimmed', () => {
    const key = 'sk-secret-value-1234';
    const err = Object.assign(new Error(`bad key ${key} ${'x'.repeat(600)}`), { statusCode: 401 });
    const text = describeFailure(err, key, 1000, 500);
    expect(text.startsWith('HTTP 401: bad key *** x')).toBe(true);
    expect(text).toHaveLength(500);
    expect(text).not.toContain(key);
    const network = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    expect(describeFailure(network, undefined, 1000, 500)).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:1)');
  });

  it('hints show the last four characters of a long enough key only', () => {
    expect(keyHint('sk-0123456789')).toBe('…6789');
    expect(keyHint('short12')).toBe('…');
    expect(maskKey('a sk-1 b sk-1', 'sk-1')).toBe('a *** b ***');
    expect(maskKey('nothing', undefined)).toBe('nothing');
  });
});
