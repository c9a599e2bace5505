import type { Message, UploadedImage } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation, sendStreamed } from '../../../test/chat-helpers.js';
import { PNG_1PX, type TestApp, multipartFile } from '../../../test/test-app.js';

const MINUTE = 60_000;

/** Image addresses in answers work in a plain <img> tag: signed, owner-bound, short-lived. */
describe('signed image addresses', () => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    owner = (await t.signUp()).session.accessToken;
    stranger = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  async function upload(token: string): Promise<UploadedImage> {
    const { payload, headers } = multipartFile('image', 'photo.png', 'image/png', PNG_1PX);
    return (await t.request<UploadedImage>('POST', '/api/chat/upload-image', { payload, headers, token })).body.data;
  }
  /** A GET without any Authorization header, as an <img> tag makes it. */
  const plainGet = (url: string, lang?: string) =>
    t.app.inject({ method: 'GET', url, headers: lang ? { 'accept-language': lang } : {} });
  const expectRefused = async (url: string) => {
    const res = await plainGet(url, 'en-US');
    expect(res.statusCode, url).toBe(403);
    const body = JSON.parse(res.body) as { error: string; message: string };
    expect(body.error).toBe('IMAGE_LINK_INVALID');
    expect(body.message).toMatch(/expired or is not valid/);
    expect((JSON.parse((await plainGet(url, 'zh-CN')).body) as { message: string }).message).toMatch(/图片链接/);
  };

  it('serves the upload answer’s address with no header', async () => {
    const img = await upload(owner);
    const res = await plainGet(img.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(PNG_1PX)).toBe(true);
  });

  it('signs the addresses of the send’s init event and of GET messages, always fresh', async () => {
    const img = await upload(owner);
    const conv = await createConversation(t, owner, { model_name: 'fake-vision' });
    const sent = await sendStreamed(t, owner, conv.id, { content: 'look', file_id: img.id });
    const init = sent.events.find((e) => e.event === 'init')?.data as { user_message: Message };
    expect((await plainGet(init.user_message.files[0]!.url)).statusCode).toBe(200);

    t.clock.advance(25 * MINUTE);
    await expectRefused(init.user_message.files[0]!.url);
    const list = await t.get<Message[]>(`/api/chat/conversations/${conv.id}/messages`, owner);
    const url = list.body.data.find((m) => m.role === 'user')!.files[0]!.url;
    expect(url).not.toBe(init.user_message.files[0]!.url);
    expect((await plainGet(url)).statusCode).toBe(200);
  });

  it('refuses a changed, borrowed, incomplete or expired signature with 403', async () => {
    const img = await upload(owner);
    const other = await upload(owner);
    const u = new URL(img.url, 'http://x');
    const exp = Number(u.searchParams.get('exp'));
    const sig = u.searchParams.get('sig')!;
    const base = `/api/chat/images/${img.id}`;
    await expectRefused(`${base}?exp=${exp}&sig=${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`);
    await expectRefused(`${base}?exp=${exp + 3600}&sig=${sig}`);
    await expectRefused(`${base}?exp=${exp}`);
    await expectRefused(`${base}?sig=${sig}`);
    // Another image's valid signature does not open this one.
    await expectRefused(`/api/chat/images/${other.id}?exp=${exp}&sig=${sig}`);
    expect((await plainGet(`${base}?exp=soon&sig=${sig}`)).statusCode).toBe(400);

    expect((await plainGet(img.url)).statusCode).toBe(200);
    t.clock.advance(21 * MINUTE);
    await expectRefused(img.url);
  });

  it('keeps the bare address for the owner’s bearer token and refuses strangers', async () => {
    const img = await upload(owner);
    const bare = `/api/chat/images/${img.id}`;
    expect((await plainGet(bare)).statusCode).toBe(401);
    const withToken = (token: string) =>
      t.app.inject({ method: 'GET', url: bare, headers: { authorization: `Bearer ${token}` } });
    expect((await withToken(owner)).statusCode).toBe(200);
    expect((await withToken(stranger)).statusCode).toBe(404);
    // A stranger's own valid signature is bound to the stranger, not to this image's owner.
    const theirs = new URL((await upload(stranger)).url, 'http://x');
    await expectRefused(`${bare}?${theirs.searchParams.toString()}`);
  });
});
