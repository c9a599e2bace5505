import type { AdminModel, AiProvider, ModelTestResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, sendStreamed } from '../../../test/chat-helpers.js';
import { type HeaderCapture, startHeaderCapture } from '../../../test/header-capture.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const KEY = 'sk-redirect-SECRET-key-0123456789';
const PROVIDERS: AiProvider[] = ['openai', 'openai_compatible', 'anthropic', 'google'];

/**
 * Keys travel in request headers, and fetch carries custom ones (`x-api-key`,
 * `x-goog-api-key`) along a redirect to any host: a model endpoint's redirect is never
 * followed, and the administrator is told where it pointed.
 */
describe('model endpoints that redirect', () => {
  let t: TestApp;
  let token: string;
  /** Where the redirects point: it must never hear from the platform. */
  let target: HeaderCapture;
  /** The configured endpoint: every request is sent on to `target` with a 302. */
  let redirector: HeaderCapture;

  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
    target = await startHeaderCapture();
    redirector = await startHeaderCapture((req, res) => {
      res.writeHead(302, { location: `${target.base}${req.url ?? '/'}` });
      res.end();
    });
  });
  afterAll(async () => {
    await redirector.close();
    await target.close();
    await t.close();
  });

  async function createModel(provider: AiProvider): Promise<AdminModel> {
    const res = await t.request<AdminModel>('POST', '/api/admin/models', {
      body: { name: `m-${unique()}`, provider, api_endpoint: `${redirector.base}/v1`, api_key: KEY },
      token,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  }

  it.each(PROVIDERS)('%s: the connection test reports the redirect and follows nothing', async (provider) => {
    const m = await createModel(provider);
    const seen = redirector.requests.length;
    const res = await t.request<ModelTestResult>('POST', `/api/admin/models/${m.id}/test`, { token, lang: 'en-US' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.message).toMatch(
      /^The endpoint answered with a redirect \(HTTP 302\) to http:\/\/127\.0\.0\.1:/,
    );
    expect(res.body.data.message).toContain(`${target.base}/v1/`);
    expect(res.body.data.message).toContain('set the final address as the endpoint');
    // The endpoint was called (once: no retry) and nothing went on.
    expect(redirector.requests.length).toBe(seen + 1);
    expect(target.requests).toEqual([]);
  });

  it('says so in the administrator’s language', async () => {
    const m = await createModel('anthropic');
    const res = await t.request<ModelTestResult>('POST', `/api/admin/models/${m.id}/test`, { token, lang: 'zh-CN' });
    expect(res.body.data.message).toMatch(/^接口地址返回了重定向（HTTP 302），指向 http:\/\/127\.0\.0\.1:/);
    expect(target.requests).toEqual([]);
  });

  it.each(PROVIDERS)('%s: discovery answers 502 naming the redirect, and follows nothing', async (provider) => {
    const res = await t.request('POST', '/api/admin/models/discover', {
      body: { provider, api_endpoint: `${redirector.base}/v1`, api_key: KEY },
      token,
      lang: 'en-US',
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toContain('The endpoint answered with a redirect (HTTP 302) to');
    expect(target.requests).toEqual([]);
  });

  it.each(PROVIDERS)('%s: a chat answer (relay or SDK stream) follows nothing either', async (provider) => {
    const m = await createModel(provider);
    const user = await t.signUp();
    const conv = await createConversation(t, user.session.accessToken, { model_name: m.name });
    const seen = redirector.requests.length;
    const sent = await sendStreamed(t, user.session.accessToken, conv.id, { content: 'hello' });
    expect(sent.events.at(-1)?.event).toBe('error');
    expect(redirector.requests.length).toBeGreaterThan(seen);
    expect(target.requests).toEqual([]);
  });
});
