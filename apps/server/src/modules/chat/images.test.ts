import type { Message, NonStreamAnswer, UploadedImage } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import { PNG_1PX, type TestApp, multipartFile } from '../../../test/test-app.js';

const UPLOAD = '/api/chat/upload-image';
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

describe('chat images', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    token = (await t.signUp()).session.accessToken;
    otherToken = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    await t.close();
  });

  async function upload(content: Buffer, opts: { field?: string; name?: string; auth?: string | null } = {}) {
    const { payload, headers } = multipartFile(opts.field ?? 'image', opts.name ?? 'photo.png', 'image/png', content);
    const auth = opts.auth === undefined ? token : opts.auth;
    return t.request<UploadedImage>('POST', UPLOAD, { payload, headers, token: auth ?? undefined });
  }
  const fetchImage = (url: string, auth?: string) =>
    t.app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${auth}` } : {} });

  it('stores an image under a random name and serves it to its owner with its type and nosniff', async () => {
    const res = await upload(PNG_1PX, { name: 'holiday.png' });
    expect(res.status).toBe(200);
    const img = res.body.data;
    expect(img).toMatchObject({ original_name: 'holiday.png', mime: 'image/png', size: PNG_1PX.length });
    expect(img.url).toMatch(new RegExp(`^/api/chat/images/${img.id}\\?exp=\\d+&sig=[\\w-]+$`));
    const row = await t.db.selectFrom('files').selectAll().where('id', '=', img.id).executeTakeFirstOrThrow();
    expect(row.stored_name).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(row.stored_name).not.toContain('holiday');

    const served = await fetchImage(img.url, token);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);
  });

  it('trusts the bytes: a JPEG named .png is a JPEG; text named .png is refused', async () => {
    const jpeg = await upload(JPEG, { name: 'fake.png' });
    expect(jpeg.body.data.mime).toBe('image/jpeg');
    const text = await upload(Buffer.from('<svg onload=alert(1)>'), { name: 'evil.png' });
    expect(text.status).toBe(415);
    expect(text.body.error).toBe('FILE_TYPE_NOT_ALLOWED');
  });

  it('refuses more than 10 MB, another field name, and a request without sign-in', async () => {
    const big = await upload(Buffer.concat([PNG_1PX, Buffer.alloc(10 * 1024 * 1024, 0)]));
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('FILE_TOO_LARGE');
    const field = await upload(PNG_1PX, { field: 'avatar' });
    expect(field.status).toBe(400);
    expect((await upload(PNG_1PX, { auth: null })).status).toBe(401);
  });

  it('hides an image from other users (404) and from requests without a token (401), but not from an administrator', async () => {
    const url = `/api/chat/images/${(await upload(PNG_1PX)).body.data.id}`;
    const other = await fetchImage(url, otherToken);
    expect(other.statusCode).toBe(404);
    expect(JSON.parse(other.body)).toMatchObject({ success: false, error: 'NOT_FOUND' });
    expect((await fetchImage(url)).statusCode).toBe(401);
    const admin = await t.loginAsAdmin();
    expect((await fetchImage(url, admin.accessToken)).statusCode).toBe(200);
    expect((await fetchImage('/api/chat/images/00000000-0000-4000-8000-000000000000', token)).statusCode).toBe(404);
    expect((await fetchImage('/api/chat/images/..%2Fsecret.key', token)).statusCode).toBe(400);
  });

  it('lets a group administrator see images of the group’s members only', async () => {
    const url = `/api/chat/images/${(await upload(PNG_1PX)).body.data.id}`;
    const { session: sameGroup } = await t.signUp();
    const { session: otherGroup } = await t.signUp();
    const group = await t.db
      .insertInto('user_groups')
      .values({
        name: `g-${Date.now()}`,
        description: '',
        color: '#000',
        sort_order: 1,
        status: 'active',
        credits_pool: 0,
        credits_pool_used: 0,
        user_limit: null,
        site_name: null,
        site_logo: null,
        site_config_enabled: 0,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where('id', 'in', [sameGroup.user.id, otherGroup.user.id])
      .execute();
    await t.db.updateTable('users').set({ group_id: group.id }).where('id', '=', otherGroup.user.id).execute();
    expect((await fetchImage(url, sameGroup.accessToken)).statusCode).toBe(200);
    expect((await fetchImage(url, otherGroup.accessToken)).statusCode).toBe(404);
  });

  it('passes the image to a vision model as an image part and shows it on the message', async () => {
    const img = (await upload(PNG_1PX, { name: 'chart.png' })).body.data;
    const conv = await createConversation(t, token, { model_name: 'fake-vision' });
    const res = await t.post<NonStreamAnswer>(
      `/api/chat/conversations/${conv.id}/messages`,
      { content: 'what is this?', file_id: img.id, stream: false },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.assistant_message.content).toContain('Image received: yes (image/png)');
    expect(res.body.data.user_message.file).toEqual({
      id: img.id,
      url: img.url,
      original_name: 'chart.png',
      kind: 'image',
    });
    const seen = fake.requests.find((r) => r.lastUserText === 'what is this?');
    expect(seen).toMatchObject({ hasImage: true, imageMime: 'image/png' });

    // An image-only question is allowed, and the earlier image stays in the history.
    const only = await t.post<NonStreamAnswer>(
      `/api/chat/conversations/${conv.id}/messages`,
      { content: '', file_id: img.id, stream: false },
      token,
    );
    expect(only.status).toBe(200);
    const messages = (await t.get<Message[]>(`/api/chat/conversations/${conv.id}/messages`, token)).body.data;
    expect(messages[0]?.file?.original_name).toBe('chart.png');
    const last = fake.requests.at(-1);
    expect(JSON.stringify(last?.messages).match(/data:image\/png;base64,/g)).toHaveLength(2);
  });

  it('refuses an image for a model without image upload (MODEL_NO_IMAGE), before charging', async () => {
    const img = (await upload(PNG_1PX)).body.data;
    const conv = await createConversation(t, token, { model_name: 'fake-echo' });
    const res = await t.post(
      `/api/chat/conversations/${conv.id}/messages`,
      { content: 'see?', file_id: img.id },
      token,
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('MODEL_NO_IMAGE');
    expect(fake.requests.find((r) => r.lastUserText === 'see?')).toBeUndefined();
    expect(await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute()).toEqual([]);
  });

  it('accepts only the sender’s own upload as file_id', async () => {
    const mine = (await upload(PNG_1PX)).body.data;
    const conv = await createConversation(t, otherToken, { model_name: 'fake-vision' });
    for (const fileId of [mine.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.post(
        `/api/chat/conversations/${conv.id}/messages`,
        { content: 'steal', file_id: fileId },
        otherToken,
      );
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    const notUuid = await t.post(
      `/api/chat/conversations/${conv.id}/messages`,
      { content: 'x', file_id: 'abc' },
      otherToken,
    );
    expect(notUuid.status).toBe(400);
  });
});
