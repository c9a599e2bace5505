import type { AdminModel, AiProvider, ModelTestResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditHeadSeq, auditRowsAfter } from '../../../test/admin-helpers.js';
import { type HeaderCapture, startHeaderCapture } from '../../../test/header-capture.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const KEY = 'sk-origin-BOUND-key-0123456789wxyz';
const NEW_KEY = 'sk-origin-NEW-key-9876543210abcd';
const PROVIDERS: AiProvider[] = ['openai', 'openai_compatible', 'anthropic', 'google'];

/**
 * A model's key belongs to the server it was entered for: moving the endpoint to another
 * origin without a new key clears it, so nobody who may edit models can read a key back
 * by pointing the model at a server of their own.
 */
describe('model key bound to its endpoint origin', () => {
  let t: TestApp;
  let token: string;
  /** The server the key was entered for, and another one (another port: another origin). */
  let home: HeaderCapture;
  let elsewhere: HeaderCapture;

  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
    home = await startHeaderCapture();
    elsewhere = await startHeaderCapture();
  });
  afterAll(async () => {
    await home.close();
    await elsewhere.close();
    await t.close();
  });

  async function call<T = AdminModel>(method: 'POST' | 'PUT', url: string, body?: unknown) {
    const res = await t.request<T>(method, `/api/admin/models${url}`, {
      ...(body !== undefined ? { body } : {}),
      token,
      lang: 'en-US',
    });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  }

  const createModel = (provider: AiProvider, api_endpoint: string | null) =>
    call('POST', '', { name: `m-${unique()}`, provider, api_endpoint, api_key: KEY });
  const sealedKey = async (id: number) =>
    (await t.db.selectFrom('ai_models').select('api_key_encrypted').where('id', '=', id).executeTakeFirstOrThrow())
      .api_key_encrypted;

  it.each(PROVIDERS)('%s: another origin without a key clears the key; the test sends none there', async (provider) => {
    const m = await createModel(provider, `${home.base}/v1`);
    const from = await auditHeadSeq(t);
    const moved = await call('PUT', `/${m.id}`, { api_endpoint: `${elsewhere.base}/v1` });
    expect(moved).toMatchObject({ api_endpoint: `${elsewhere.base}/v1`, api_key_set: false, api_key_hint: null });
    expect(await sealedKey(m.id)).toBeNull();

    const seenBefore = elsewhere.requests.length;
    const result = await call<ModelTestResult>('POST', `/${m.id}/test`);
    expect(result.status).toBe('failed');
    expect(elsewhere.requests.length).toBeGreaterThan(seenBefore);
    expect(elsewhere.sawInHeaders(KEY)).toBe(false);

    const [update] = (await auditRowsAfter(t, from)).filter((r) => r.action === 'model.update');
    expect(update?.changes).toEqual({
      before: { api_endpoint: `${home.base}/v1`, key_set: true, key_hint: '…wxyz' },
      after: {
        api_endpoint: `${elsewhere.base}/v1`,
        key_set: false,
        key_hint: null,
        key_cleared: 'endpoint_origin_changed',
      },
    });
  });

  it.each(PROVIDERS)('%s: a path change on the same origin keeps the key', async (provider) => {
    const m = await createModel(provider, `${home.base}/v1`);
    const kept = await call('PUT', `/${m.id}`, { api_endpoint: `${home.base}/proxy/v2` });
    expect(kept).toMatchObject({ api_key_set: true, api_key_hint: '…wxyz' });
    await call<ModelTestResult>('POST', `/${m.id}/test`);
    expect(home.requests.at(-1)?.url.startsWith('/proxy/v2/')).toBe(true);
    expect(JSON.stringify(home.requests.at(-1)?.headers)).toContain(KEY);
  });

  it('another origin with a new key in the same request keeps the new key; the old one never goes there', async () => {
    const m = await createModel('anthropic', `${home.base}/v1`);
    const moved = await call('PUT', `/${m.id}`, { api_endpoint: `${elsewhere.base}/v1`, api_key: NEW_KEY });
    expect(moved).toMatchObject({ api_key_set: true, api_key_hint: '…abcd' });
    await call<ModelTestResult>('POST', `/${m.id}/test`);
    expect(elsewhere.requests.at(-1)?.headers['x-api-key']).toBe(NEW_KEY);
    expect(elsewhere.sawInHeaders(KEY)).toBe(false);
  });

  it('the provider’s default address counts as its origin: default → custom clears, default spelled out keeps', async () => {
    const toCustom = await createModel('openai', null);
    expect((await call('PUT', `/${toCustom.id}`, { api_endpoint: `${elsewhere.base}/v1` })).api_key_set).toBe(false);

    const spelledOut = await createModel('google', null);
    const same = await call('PUT', `/${spelledOut.id}`, {
      api_endpoint: 'https://generativelanguage.googleapis.com/v1beta/',
    });
    expect(same.api_key_set).toBe(true);
    // And back to the default (null): the same origin again.
    expect((await call('PUT', `/${spelledOut.id}`, { api_endpoint: null })).api_key_set).toBe(true);
  });

  it('a provider change that sends the key to another origin clears it too', async () => {
    const switched = await createModel('openai', null);
    expect((await call('PUT', `/${switched.id}`, { provider: 'anthropic' })).api_key_set).toBe(false);

    const sameServer = await createModel('openai_compatible', `${home.base}/v1`);
    expect((await call('PUT', `/${sameServer.id}`, { provider: 'openai' })).api_key_set).toBe(true);

    // An OpenAI-compatible model without an endpoint calls nowhere: giving it one is a move.
    const nowhere = await createModel('openai_compatible', null);
    expect((await call('PUT', `/${nowhere.id}`, { api_endpoint: `${home.base}/v1` })).api_key_set).toBe(false);
  });

  it('discovery with the stored model sends no key to the new origin either', async () => {
    const m = await createModel('google', `${home.base}/v1beta`);
    await call('PUT', `/${m.id}`, { api_endpoint: `${elsewhere.base}/v1beta` });
    const res = await t.request('POST', '/api/admin/models/discover', { body: { model_id: m.id }, token });
    expect(res.status).toBe(502);
    expect(elsewhere.requests.at(-1)?.url.startsWith('/v1beta/models')).toBe(true);
    expect(elsewhere.sawInHeaders(KEY)).toBe(false);
  });
});
