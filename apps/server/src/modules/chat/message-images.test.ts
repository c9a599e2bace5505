import { SignedImageUrls } from '../../lib/auth/signed-image-urls.js';
import fs from 'node:fs';
import path from 'node:path';
import {
  DOCUMENT_LIMITS,
  MAX_IMAGES_PER_MESSAGE,
  type Message,
  type NonStreamAnswer,
  type UploadedImage,
} from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import { type ErrorData, PNG_1PX, type TestApp, multipartFile } from '../../../test/test-app.js';
import { fillMessageFiles } from '../../db/migrations/0011-message-images.js';
import { FilesRepo } from './files.repo.js';
import { ImagesService } from './images.service.js';
import { MessageFilesRepo } from './message-files.repo.js';
import type { UploadGate } from '../storage/upload-gate.js';

/** A PNG made distinct by a trailing byte (the type is read from the first bytes only). */
const png = (n: number) => Buffer.concat([PNG_1PX, Buffer.from([n])]);
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

describe('several images per message, deleted with their messages', () => {
  let t: TestApp;
  let fake: FakeUpstream;

  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
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
      'en-US',
    );
  const blobOf = async (fileId: string) => {
    const row = await t.db.selectFrom('files').select('stored_name').where('id', '=', fileId).executeTakeFirstOrThrow();
    return path.join(t.config.dataDir, 'uploads', row.stored_name);
  };
  const fileRow = (fileId: string) => t.db.selectFrom('files').select('id').where('id', '=', fileId).executeTakeFirst();
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

  it(`sends ${MAX_IMAGES_PER_MESSAGE} images to the model in order, shows them in order, and keeps them in later context`, async () => {
    const u = await user();
    const bytes = [1, 2, 3, 4].map(png);
    const uploaded = [];
    for (const [i, b] of bytes.entries()) uploaded.push(await upload(u.token, b, `photo-${i + 1}.png`));
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });

    const res = await send(u.token, conv.id, { content: 'four pictures', file_ids: uploaded.map((f) => f.id) });
    expect(res.status, res.text).toBe(200);
    const expected = uploaded.map((f) => ({ id: f.id, url: f.url, original_name: f.original_name, kind: 'image' }));
    expect(res.body.data.user_message.files).toEqual(expected);
    expect(res.body.data.user_message.file).toEqual(expected[0]);

    const first = fake.requests.find((r) => r.lastUserText === 'four pictures');
    expect(imagesPerTurn(first?.messages ?? []).at(-1)).toEqual(bytes.map(dataUrl));

    const listed = (await t.get<Message[]>(`/api/chat/conversations/${conv.id}/messages`, u.token)).body.data;
    expect(listed[0]?.files).toEqual(expected);
    expect(listed[0]?.file).toEqual(expected[0]);
    expect(listed[1]?.files).toEqual([]);
    expect(listed[1]?.file).toBeNull();

    // The next turn carries the earlier question's four images, still in order.
    const next = await send(u.token, conv.id, { content: 'and now?' });
    expect(next.status, next.text).toBe(200);
    const later = fake.requests.find((r) => r.lastUserText === 'and now?');
    expect(imagesPerTurn(later?.messages ?? [])).toEqual([bytes.map(dataUrl), []]);
  });

  it('merges file_id and file_ids in order without repeats', async () => {
    const u = await user();
    const [a, b, c] = [
      await upload(u.token, png(11), 'a.png'),
      await upload(u.token, png(12), 'b.png'),
      await upload(u.token, png(13), 'c.png'),
    ];
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const res = await send(u.token, conv.id, {
      content: 'merged',
      file_id: a?.id,
      file_ids: [b?.id, a?.id, c?.id, b?.id],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.user_message.files.map((f) => f.original_name)).toEqual(['a.png', 'b.png', 'c.png']);
    const seen = fake.requests.find((r) => r.lastUserText === 'merged');
    expect(imagesPerTurn(seen?.messages ?? []).at(-1)).toEqual([11, 12, 13].map((n) => dataUrl(png(n))));
  });

  it(`refuses ${MAX_IMAGES_PER_MESSAGE + 1} uploaded images, a foreign one among own ones, and any image for a text model — before charging`, async () => {
    const u = await user();
    const other = await user();
    const mine = [];
    for (let i = 0; i <= MAX_IMAGES_PER_MESSAGE; i++) mine.push(await upload(u.token, png(20 + i), `m${i}.png`));
    const foreign = await upload(other.token, png(30), 'theirs.png');
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });

    const five = await send(u.token, conv.id, { content: 'five', file_ids: mine.map((f) => f.id) });
    expect(five.status).toBe(400);
    expect(five.body.data.errors).toContain(
      `A message can carry at most ${MAX_IMAGES_PER_MESSAGE} images and ${DOCUMENT_LIMITS.maxDocumentsPerMessage} documents`,
    );

    const mixed = await send(u.token, conv.id, { content: 'mixed', file_ids: [mine[0]?.id, foreign.id] });
    expect(mixed.status).toBe(404);
    expect(mixed.body.error).toBe('NOT_FOUND');

    const text = await createConversation(t, u.token, { model_name: 'fake-echo' });
    const refused = await send(u.token, text.id, { content: 'text model', file_ids: [mine[0]?.id, mine[1]?.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('MODEL_NO_IMAGE');

    expect((await t.userRow(u.id)).credits_used).toBe(0);
    const rows = await t.db
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', 'in', [conv.id, text.id])
      .execute();
    expect(rows).toEqual([]);
    expect(fake.requests.some((r) => ['five', 'mixed', 'text model'].includes(r.lastUserText))).toBe(false);
  });

  it('deleting a message pair removes its images (rows and bytes); a shared image stays until its last message goes', async () => {
    const u = await user();
    const own = await upload(u.token, png(40), 'own.png');
    const shared = await upload(u.token, png(41), 'shared.png');
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const one = await send(u.token, conv.id, { content: 'one', file_ids: [own.id, shared.id] });
    const two = await send(u.token, conv.id, { content: 'two', file_id: shared.id });
    expect(one.status, one.text).toBe(200);
    expect(two.status, two.text).toBe(200);
    const ownBlob = await blobOf(own.id);
    const sharedBlob = await blobOf(shared.id);

    const del = (answerId: string) =>
      t.request('DELETE', `/api/chat/conversations/${conv.id}/messages/${answerId}`, { token: u.token });
    expect((await del(one.body.data.assistant_message.id)).status).toBe(200);
    expect(await fileRow(own.id)).toBeUndefined();
    expect(fs.existsSync(ownBlob)).toBe(false);
    expect(await fileRow(shared.id)).toBeDefined();
    expect(fs.existsSync(sharedBlob)).toBe(true);
    // The remaining message still shows (and serves) the shared image.
    const left = (await t.get<Message[]>(`/api/chat/conversations/${conv.id}/messages`, u.token)).body.data;
    expect(left[0]?.files.map((f) => f.id)).toEqual([shared.id]);
    expect(
      (await t.app.inject({ method: 'GET', url: shared.url, headers: { authorization: `Bearer ${u.token}` } }))
        .statusCode,
    ).toBe(200);

    expect((await del(two.body.data.assistant_message.id)).status).toBe(200);
    expect(await fileRow(shared.id)).toBeUndefined();
    expect(fs.existsSync(sharedBlob)).toBe(false);
    expect(
      await t.db.selectFrom('message_files').select('file_id').where('file_id', 'in', [own.id, shared.id]).execute(),
    ).toEqual([]);
  });

  it('an image shared by two conversations survives clearing one and goes with deleting the other', async () => {
    const u = await user();
    const shared = await upload(u.token, png(50), 'shared.png');
    const only = await upload(u.token, png(51), 'only.png');
    const a = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const b = await createConversation(t, u.token, { model_name: 'fake-vision' });
    expect((await send(u.token, a.id, { content: 'a', file_ids: [shared.id, only.id] })).status).toBe(200);
    expect((await send(u.token, b.id, { content: 'b', file_ids: [shared.id] })).status).toBe(200);
    const sharedBlob = await blobOf(shared.id);
    const onlyBlob = await blobOf(only.id);

    const cleared = await t.post(`/api/chat/conversations/${a.id}/clear`, {}, u.token);
    expect(cleared.status, cleared.text).toBe(200);
    expect(await fileRow(only.id)).toBeUndefined();
    expect(fs.existsSync(onlyBlob)).toBe(false);
    expect(await fileRow(shared.id)).toBeDefined();
    expect(fs.existsSync(sharedBlob)).toBe(true);

    const deleted = await t.request('DELETE', `/api/chat/conversations/${b.id}`, { token: u.token });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await fileRow(shared.id)).toBeUndefined();
    expect(fs.existsSync(sharedBlob)).toBe(false);
  });

  it('deleting a conversation removes the images of all its messages; another user cannot delete it', async () => {
    const u = await user();
    const other = await user();
    const pics = [await upload(u.token, png(60), 'x.png'), await upload(u.token, png(61), 'y.png')];
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    expect((await send(u.token, conv.id, { content: 'x', file_id: pics[0]?.id })).status).toBe(200);
    expect((await send(u.token, conv.id, { content: 'y', file_id: pics[1]?.id })).status).toBe(200);
    const blobs = [await blobOf(pics[0]?.id ?? ''), await blobOf(pics[1]?.id ?? '')];

    const foreign = await t.request('DELETE', `/api/chat/conversations/${conv.id}`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(blobs.every((b) => fs.existsSync(b))).toBe(true);

    expect((await t.request('DELETE', `/api/chat/conversations/${conv.id}`, { token: u.token })).status).toBe(200);
    for (const p of pics) expect(await fileRow(p?.id ?? '')).toBeUndefined();
    expect(blobs.some((b) => fs.existsSync(b))).toBe(false);
  });

  it('keep_images=true keeps a deleted question’s images as uploads, so regenerate and edit can send them again', async () => {
    const u = await user();
    const pics = [await upload(u.token, png(70), 'p.png'), await upload(u.token, png(71), 'q.png')];
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const first = await send(u.token, conv.id, { content: 'first', file_ids: pics.map((p) => p.id) });
    const url = `/api/chat/conversations/${conv.id}/messages/${first.body.data.assistant_message.id}?keep_images=true`;
    expect((await t.request('DELETE', url, { token: u.token })).status).toBe(200);
    for (const p of pics) expect(fs.existsSync(await blobOf(p.id))).toBe(true);

    const again = await send(u.token, conv.id, { content: 'again', file_ids: pics.map((p) => p.id) });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.user_message.files.map((f) => f.id)).toEqual(pics.map((p) => p.id));
  });

  it('housekeeping deletes uploads no message lists once they are a day old, and nothing else', async () => {
    const u = await user();
    const stale = await upload(u.token, png(80), 'stale.png');
    const fresh = await upload(u.token, png(81), 'fresh.png');
    const used = await upload(u.token, png(82), 'used.png');
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    expect((await send(u.token, conv.id, { content: 'used', file_id: used.id })).status).toBe(200);
    const now = new Date('2035-06-01T12:00:00.000Z');
    const dayAndABitAgo = new Date(now.getTime() - 25 * 3_600_000).toISOString();
    const almostADayAgo = new Date(now.getTime() - 23 * 3_600_000).toISOString();
    await t.db.updateTable('files').set({ created_at: dayAndABitAgo }).where('id', 'in', [stale.id, used.id]).execute();
    await t.db.updateTable('files').set({ created_at: almostADayAgo }).where('id', '=', fresh.id).execute();
    const blobs = { stale: await blobOf(stale.id), fresh: await blobOf(fresh.id), used: await blobOf(used.id) };

    const images = new ImagesService(
      path.join(t.config.dataDir, 'uploads'),
      new FilesRepo(t.db),
      new MessageFilesRepo(t.db),
      t.clock,
      new SignedImageUrls('test', t.clock),
      // Pruning stores nothing, so it never reaches the upload gate.
      null as unknown as UploadGate,
    );
    expect(await images.pruneStaleUploads(now)).toBeGreaterThanOrEqual(1);
    expect(await fileRow(stale.id)).toBeUndefined();
    expect(fs.existsSync(blobs.stale)).toBe(false);
    expect(await fileRow(fresh.id)).toBeDefined();
    expect(fs.existsSync(blobs.fresh)).toBe(true);
    expect(await fileRow(used.id)).toBeDefined();
    expect(fs.existsSync(blobs.used)).toBe(true);
  });

  it('the migration moves an older single image (messages.file_id) into the ordered list', async () => {
    const u = await user();
    const pic = await upload(u.token, png(90), 'legacy.png');
    const conv = await createConversation(t, u.token, { model_name: 'fake-vision' });
    const sent = await send(u.token, conv.id, { content: 'legacy' });
    const questionId = sent.body.data.user_message.id;
    // As an older version stored it: the id on the message, no list.
    await t.db.updateTable('messages').set({ file_id: pic.id }).where('id', '=', questionId).execute();

    await fillMessageFiles(t.db as unknown as Kysely<unknown>);

    const row = await t.db
      .selectFrom('messages')
      .select('file_id')
      .where('id', '=', questionId)
      .executeTakeFirstOrThrow();
    expect(row.file_id).toBeNull();
    const listed = (await t.get<Message[]>(`/api/chat/conversations/${conv.id}/messages`, u.token)).body.data;
    expect(listed[0]?.files.map((f) => f.original_name)).toEqual(['legacy.png']);
    expect(listed[0]?.file?.id).toBe(pic.id);
  });
});
