import fs from 'node:fs';
import zlib from 'node:zlib';
import { type Locator, type Page, expect, test } from '@playwright/test';
import { ChatApi, messages, openChat, TALL_DESKTOP, typeAndSend, upstreamRequest } from '../support/chat';
import { VISION_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { type TestUser, registerViaApi, uniqueToken } from '../support/users';

/** A solid-colour PNG of the given size (distinct colours make distinct files, visible in screenshots). */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3] ?? 0)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const COLOURS: [number, number, number][] = [
  [220, 60, 60],
  [60, 140, 220],
  [60, 180, 90],
  [230, 170, 40],
  [140, 80, 200],
];
const WIDTH = 160;
const imageBytes = (n: number) => solidPng(WIDTH, 100, COLOURS[(n - 1) % COLOURS.length] ?? [0, 0, 0]);
const pngFile = (dir: (name: string) => string, name: string, n: number) => {
  const file = dir(name);
  fs.writeFileSync(file, imageBytes(n));
  return file;
};

/** The loaded pictures of a message (`message-image` marks each, on the image or its wrapper). */
const shownImages = (message: Locator) =>
  message.locator('img[data-testid="message-image"], [data-testid="message-image"] img');

async function openVisionChat(page: Page, request: Parameters<typeof registerViaApi>[0], prefix: string) {
  const user: TestUser = await registerViaApi(request, { prefix });
  const api = await ChatApi.login(request, user);
  const conversation = await api.createConversation({ model_name: VISION_MODEL.name, title: 'Pictures' });
  await openChat(page, user, conversation.id);
  await expect(page.getByTestId('chat-image-tag')).toBeVisible();
  return { api, conversation };
}

/** Picks files in the upload dialog and waits until every one has been uploaded. */
async function attach(page: Page, files: string[], expectUploads: number) {
  let uploads = 0;
  const counter = (r: { url(): string }) => {
    if (r.url().endsWith('/api/chat/upload-image')) uploads += 1;
  };
  page.on('response', counter);
  await page.getByTestId('image-input').setInputFiles(files);
  await expect.poll(() => uploads).toBe(expectUploads);
  page.off('response', counter);
}

test.describe('chat: several images per message', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('two images go with one question, in order, and stay shown after a reload', async ({
    page,
    request,
  }, testInfo) => {
    const { api, conversation } = await openVisionChat(page, request, 'cimgs');
    const token = uniqueToken();
    const first = pngFile((n) => testInfo.outputPath(n), `first-${token}.png`, 1);
    const second = pngFile((n) => testInfo.outputPath(n), `second-${token}.png`, 2);

    await attach(page, [first, second], 2);
    await expect(toast(page, '已上传 2 张图片')).toBeVisible();
    const previews = page.getByTestId('image-preview');
    await expect(previews).toHaveCount(2);
    await expect(previews.nth(0)).toContainText(`first-${token}`);
    await expect(previews.nth(1)).toContainText(`second-${token}`);
    // Each remove button names its image.
    await expect(page.getByRole('button', { name: `移除图片 first-${token}.png` })).toBeVisible();
    await expect(page.getByRole('button', { name: `移除图片 second-${token}.png` })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('composer-zh.png') });

    const marker = `m-${uniqueToken()}`;
    await typeAndSend(page, `Compare these ${marker}`);
    await expect(previews).toHaveCount(0);
    const answer = messages(page, 'assistant').last();
    await expect(answer).toHaveAttribute('data-status', 'complete');
    const question = messages(page, 'user').last();
    await expect(shownImages(question)).toHaveCount(2);
    for (const i of [0, 1]) await expect(shownImages(question).nth(i)).toHaveJSProperty('naturalWidth', WIDTH);
    await page.screenshot({ path: testInfo.outputPath('sent-zh.png') });

    // Both went upstream as image parts of the question, in the order attached.
    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    const parts = upstream.messages.at(-1)?.content as { type: string; image_url?: { url: string } }[];
    expect(parts.filter((p) => p.type === 'image_url').map((p) => p.image_url?.url)).toEqual(
      [1, 2].map((n) => `data:image/png;base64,${imageBytes(n).toString('base64')}`),
    );

    const stored = await api.messages(conversation.id);
    expect(stored[0]?.files.map((f) => f.original_name)).toEqual([`first-${token}.png`, `second-${token}.png`]);

    await page.reload();
    const reloaded = messages(page, 'user').last();
    await expect(shownImages(reloaded)).toHaveCount(2);
    for (const i of [0, 1]) await expect(shownImages(reloaded).nth(i)).toHaveJSProperty('naturalWidth', WIDTH);
    await page.setViewportSize({ width: 375, height: 800 });
    await messages(page, 'user').last().scrollIntoViewIfNeeded();
    await expect(shownImages(messages(page, 'user').last())).toHaveCount(2);
    await page.screenshot({ path: testInfo.outputPath('sent-375.png') });
  });

  test('no more than four images: the rest is refused with the limit, and removing one makes room', async ({
    page,
    request,
  }, testInfo) => {
    await openVisionChat(page, request, 'cimgmax');
    const token = uniqueToken();
    const files = [1, 2, 3, 4, 5].map((n) => pngFile((f) => testInfo.outputPath(f), `p${n}-${token}.png`, n));

    await attach(page, files, 4);
    await expect(toast(page, '每条消息最多附带 4 张图片')).toBeVisible();
    await expect(page.getByTestId('image-preview')).toHaveCount(4);
    const upload = page.getByTestId('image-upload-button');
    await expect(upload).toBeDisabled();
    await expect(upload).toHaveAccessibleName('每条消息最多附带 4 张图片');

    await page.getByRole('button', { name: `移除图片 p2-${token}.png` }).click();
    await expect(page.getByTestId('image-preview')).toHaveCount(3);
    await expect(page.getByTestId('image-preview').nth(1)).toContainText(`p3-${token}`);
    await expect(upload).toBeEnabled();

    // On a phone the four thumbnails wrap inside the composer.
    await attach(page, [files[1] as string], 1);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: testInfo.outputPath('composer-375.png') });
  });

  test.describe('in English', () => {
    test.use({ locale: 'en-US' });

    test('the limit and the remove buttons are in English', async ({ page, request }, testInfo) => {
      await openVisionChat(page, request, 'cimgen');
      const token = uniqueToken();
      const files = [1, 2, 3, 4, 5].map((n) => pngFile((f) => testInfo.outputPath(f), `e${n}-${token}.png`, n));
      await attach(page, files, 4);
      await expect(toast(page, 'A message can carry at most 4 images')).toBeVisible();
      await expect(page.getByRole('button', { name: `Remove image e1-${token}.png` })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('composer-en.png') });
    });
  });
});
