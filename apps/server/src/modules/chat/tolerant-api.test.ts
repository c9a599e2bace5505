import { DOCUMENT_LIMITS, LIMITS, MAX_FILES_PER_MESSAGE, MAX_IMAGES_PER_MESSAGE } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  parseSse,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

/**
 * Other clients (older apps, OpenAI-style front ends, scripts) send fields we do not know
 * and ask for more than a page holds. Unknown body fields are dropped, never refused and
 * never applied; a `limit` above the maximum is clamped. Every auth and chat call is
 * driven here with such extras.
 */
const EXTRAS = { invitation_code: null, system_prompt_id: null, role: 'super_admin', user_id: 1, credits_quota: 1e6 };

describe('a tolerant API: unknown fields ignored, large limits clamped', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await createChatApp());
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    await t.close();
  });

  it('auth calls accept and ignore extra fields; none of them applies', async () => {
    const email = `tolerant_${Date.now()}@example.com`;
    const register = await t.post<{ id: number }>('/api/auth/register', {
      email,
      username: `tol_${Date.now()}`,
      password: 'secret123',
      confirmPassword: 'secret123',
      phone: null,
      ...EXTRAS,
    });
    expect(register.status, register.text).toBe(201);
    const id = register.body.data.id;
    expect(await t.userRow(id)).toMatchObject({ role: 'user', credits_quota: 1000 });

    expect((await t.post('/api/auth/check-email', { email: 'free@example.com', ...EXTRAS })).status).toBe(200);
    expect((await t.post('/api/auth/check-username', { username: 'free_name', ...EXTRAS })).status).toBe(200);

    const login = await t.post<{ accessToken: string; refreshToken: string }>('/api/auth/login', {
      account: email,
      password: 'secret123',
      remember: true,
      captcha: null,
      ...EXTRAS,
    });
    expect(login.status, login.text).toBe(200);
    const refreshed = await t.post<{ accessToken: string; refreshToken: string }>('/api/auth/refresh', {
      refreshToken: login.body.data.refreshToken,
      ...EXTRAS,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const token = refreshed.body.data.accessToken;

    const profile = await t.put('/api/auth/profile', { username: `tol2_${Date.now()}`, phone: null, ...EXTRAS }, token);
    expect(profile.status, profile.text).toBe(200);
    const password = await t.put(
      '/api/auth/password',
      { oldPassword: 'secret123', newPassword: 'secret456', confirmPassword: 'secret456', ...EXTRAS },
      token,
    );
    expect(password.status, password.text).toBe(200);
    expect(await t.userRow(id)).toMatchObject({ role: 'user', credits_quota: 1000 });

    const again = await t.tokensFor(email, 'secret456');
    const logout = await t.post('/api/auth/logout', { refreshToken: again.refreshToken, ...EXTRAS }, again.accessToken);
    expect(logout.status, logout.text).toBe(200);
  });

  it('chat calls accept and ignore extra fields; a send with `file_ids: []` is answered', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const created = await t.post<{ id: string; model_name: string }>(
      '/api/chat/conversations',
      { model_name: 'fake-echo', title: 'extras', folder_id: null, ...EXTRAS },
      token,
    );
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    const updated = await t.put(`/api/chat/conversations/${id}`, { title: 'still extras', tags: [], ...EXTRAS }, token);
    expect(updated.status, updated.text).toBe(200);
    const draft = await t.post(`/api/chat/conversations/${id}/draft`, { content: 'd', ...EXTRAS }, token);
    expect(draft.status, draft.text).toBe(200);

    const plain = await t.post<{ assistant_message: { content: string } }>(
      `/api/chat/conversations/${id}/messages`,
      { content: 'tolerant plain', stream: false, file_ids: [], parent_message_id: 'x', ...EXTRAS },
      token,
    );
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.data.assistant_message.content).toContain('tolerant plain');
    const streamed = await sendStreamed(t, token, id, { content: 'tolerant stream', file_ids: [], ...EXTRAS });
    expect(streamed.events.at(-1)?.event).toBe('done');
    expect((await t.userRow(session.user.id)).credits_used).toBe(20);
  });

  it('file_ids: more than MAX_FILES_PER_MESSAGE different files (with file_id counted) are refused by name; an empty list is no content', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken);
    const url = `/api/chat/conversations/${conv.id}/messages`;
    const ids = Array.from({ length: MAX_FILES_PER_MESSAGE + 1 }, () => crypto.randomUUID());
    const tooMany = await t.post(url, { content: 'x', stream: false, file_ids: ids }, session.accessToken, 'en-US');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.errors).toContain(
      `A message can carry at most ${MAX_IMAGES_PER_MESSAGE} images and ${DOCUMENT_LIMITS.maxDocumentsPerMessage} documents`,
    );
    const zh = await t.post(
      url,
      { content: 'x', stream: false, file_id: ids[0], file_ids: ids.slice(1) },
      session.accessToken,
      'zh-CN',
    );
    expect(zh.status).toBe(400);
    expect(zh.body.data.errors).toContain(
      `每条消息最多附带 ${MAX_IMAGES_PER_MESSAGE} 张图片和 ${DOCUMENT_LIMITS.maxDocumentsPerMessage} 个文档`,
    );
    // Repeats count once: the most files allowed, one of them named twice, pass the check
    // (and are then refused only because nobody uploaded them).
    const repeated = await t.post(
      url,
      { content: 'x', stream: false, file_id: ids[0], file_ids: [ids[0], ...ids.slice(1, MAX_FILES_PER_MESSAGE)] },
      session.accessToken,
      'en-US',
    );
    expect(repeated.status).toBe(404);
    const empty = await t.post(url, { content: ' ', stream: false, file_ids: [] }, session.accessToken, 'en-US');
    expect(empty.status).toBe(400);
    expect((await t.userRow(session.user.id)).credits_used).toBe(0);
  });

  it('clamps an over-large limit to the page maximum instead of refusing it', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const conversations = await t.get<unknown[]>('/api/chat/conversations?limit=500', token);
    expect(conversations.status, conversations.text).toBe(200);
    expect(conversations.body.pagination?.limit).toBe(LIMITS.conversationPageSize);
    const history = await t.get<{ pagination: { limit: number } }>('/api/auth/credit-history?limit=500', token);
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.pagination.limit).toBe(LIMITS.creditHistoryMaxLimit);
  });

  it('the stream error event is shaped like the error envelope: number, stable code, translated text', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-error' });
    const res = await t.request('POST', `/api/chat/conversations/${conv.id}/messages`, {
      body: { content: 'fail please', stream: true },
      token: session.accessToken,
      lang: 'en-US',
    });
    expect(res.status).toBe(200);
    const [error] = eventData(parseSse(res.text).events, 'error');
    expect(error).toEqual({
      code: 502,
      error: 'UPSTREAM_ERROR',
      message: 'The AI service is temporarily unavailable, please try again later',
    });
  });
});
