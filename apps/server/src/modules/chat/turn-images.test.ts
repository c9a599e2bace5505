import { LIMITS, type NonStreamAnswer, type UploadedImage } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatApp, createConversation, expectLedgerConsistent, sendStreamed } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import { type ErrorData, PNG_1PX, type TestApp, multipartFile } from '../../../test/test-app.js';
import { ImagesService } from './images.service.js';

/** A PNG made distinct by a trailing byte (the type is read from the first bytes only). */
const png = (n: number) => Buffer.concat([PNG_1PX, Buffer.from([n])]);
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const MB = 1024 * 1024;

/** What a turn reads of its images: nothing before its credits are reserved, within a byte budget, one at a time. */
describe('the images a turn reads', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.setSetting('credits', { enabled: true, min_credits_for_chat: 0 });
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { id: session.user.id, token: session.accessToken };
  }
  async function upload(token: string, bytes: Buffer, name: string): Promise<UploadedImage> {
    const { payload, headers } = multipartFile('image', name, 'image/png', bytes);
    const res = await t.request<UploadedImage>('POST', '/api/chat/upload-image', { payload, headers, token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }
  const send = (token: string, conversationId: string, body: Record<string, unknown>) =>
    t.post<NonStreamAnswer & ErrorData>(
      `/api/chat/conversations/${conversationId}/messages`,
      { stream: false, ...body },
      token,
    );
  /** Counts the stored images read, and the most read at the same time. */
  function countReads() {
    const read = Reflect.get<ImagesService, 'read'>(ImagesService.prototype, 'read');
    const seen = { reads: 0, inFlight: 0, mostAtOnce: 0 };
    vi.spyOn(ImagesService.prototype, 'read').mockImplementation(async function (this: ImagesService, ...args) {
      seen.reads += 1;
      seen.inFlight += 1;
      seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.inFlight);
      try {
        // A pause, so reads started together would overlap.
        await new Promise((r) => setTimeout(r, 5));
        return await read.apply(this, args);
      } finally {
        seen.inFlight -= 1;
      }
    });
    return seen;
  }
  /** The image data URLs of each user turn of an upstream request, in order. */
  const imagesPerTurn = (messages: { role: string; content: unknown }[]) =>
    messages
      .filter((m) => m.role === 'user')
      .map((m) =>
        Array.isArray(m.content)
          ? (m.content as { type: string; image_url?: { url: string } }[])
              .filter((p) => p.type === 'image_url')
              .map((p) => p.image_url?.url)
          : [],
      );
  /** Makes the stored images weigh `bytes` each as far as the turn's budget is concerned. */
  const weigh = (fileIds: string[], bytes: number) =>
    t.db.updateTable('files').set({ size: bytes }).where('id', 'in', fileIds).execute();

  it('reads no image for text-only sends that cannot be paid, though the conversation holds images', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    for (const n of [1, 2, 3]) {
      const pic = await upload(u.token, png(n), `p${n}.png`);
      expect((await send(u.token, conv.id, { content: `picture ${n}`, file_id: pic.id })).status).toBe(200);
    }
    const seen = countReads();
    await t.setSetting('credits', { enabled: true, min_credits_for_chat: 5000 });

    const refused = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => send(u.token, conv.id, { content: `broke ${i}` })),
      ...Array.from({ length: 5 }, (_, i) => sendStreamed(t, u.token, conv.id, { content: `broke stream ${i}` })),
    ]);
    expect(refused.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 402));
    expect(seen.reads).toBe(0);
    // Not asked for early either: the prompt would have had to read the images first.
    expect(fake.requests.some((r) => r.lastUserText.startsWith('broke'))).toBe(false);

    await t.setSetting('credits', { enabled: true, min_credits_for_chat: 0 });
    const paid = await sendStreamed(t, u.token, conv.id, { content: 'paid now' });
    expect(paid.status).toBe(200);
    expect(seen.reads).toBe(3);
  });

  it(`sends at most ${LIMITS.imageBytesPerTurn / MB} MB of images a turn: the newest earlier questions' first, read one at a time`, async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const bytes = [11, 12, 13, 14].map(png);
    const pics = [];
    for (const [i, b] of bytes.entries()) pics.push(await upload(u.token, b, `big-${i}.png`));
    // Oldest question: one image; the next: two; the newest: one. 7 MB each.
    const [a, b, c, d] = pics.map((p) => p.id);
    for (const [content, fileIds] of [
      ['oldest', [a]],
      ['middle', [b, c]],
      ['newest', [d]],
    ] as const) {
      expect((await send(u.token, conv.id, { content, file_ids: fileIds })).status).toBe(200);
    }
    await weigh([a, b, c, d] as string[], 7 * MB);
    const seen = countReads();

    const next = await send(u.token, conv.id, { content: 'what did I send?' });
    expect(next.status, next.text).toBe(200);
    const sent = fake.requests.find((r) => r.lastUserText === 'what did I send?');
    // 7 + 14 MB fit in 20 MB no more: the newest question's image and the middle one's two
    // would be 21 MB, so only the newest question's image goes; older ones are left out, their text kept.
    expect(imagesPerTurn(sent?.messages ?? [])).toEqual([[], [], [dataUrl(bytes[3] as Buffer)], []]);
    expect(seen.reads).toBe(1);

    // Lighter images: all fit (4 × 4 MB), read one after another, never together.
    await weigh([a, b, c, d] as string[], 4 * MB);
    const again = await send(u.token, conv.id, { content: 'and now?' });
    expect(again.status, again.text).toBe(200);
    const all = fake.requests.find((r) => r.lastUserText === 'and now?');
    expect(imagesPerTurn(all?.messages ?? [])).toEqual([
      [dataUrl(bytes[0] as Buffer)],
      [dataUrl(bytes[1] as Buffer), dataUrl(bytes[2] as Buffer)],
      [dataUrl(bytes[3] as Buffer)],
      [],
      [],
    ]);
    expect(seen.reads).toBe(1 + 4);
    expect(seen.mostAtOnce).toBe(1);
  });

  it("always sends the question's own images, then no earlier ones once the budget is spent", async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const earlier = await upload(u.token, png(21), 'earlier.png');
    expect((await send(u.token, conv.id, { content: 'earlier', file_id: earlier.id })).status).toBe(200);
    const own = [22, 23, 24].map(png);
    const ownIds: string[] = [];
    for (const [i, b] of own.entries()) ownIds.push((await upload(u.token, b, `own-${i}.png`)).id);
    // 30 MB of the question's own: over the budget, and sent all the same.
    await weigh(ownIds, LIMITS.imageMaxBytes);
    await weigh([earlier.id], 1);

    const res = await send(u.token, conv.id, { content: 'mine, large', file_ids: ownIds });
    expect(res.status, res.text).toBe(200);
    const sent = fake.requests.find((r) => r.lastUserText === 'mine, large');
    expect(imagesPerTurn(sent?.messages ?? [])).toEqual([[], own.map(dataUrl)]);
  });
});
