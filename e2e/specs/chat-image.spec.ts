import fs from 'node:fs';
import path from 'node:path';
import { type Locator, expect, test } from '@playwright/test';
import { ChatApi, messages, openChat, TALL_DESKTOP, typeAndSend, upstreamRequest } from '../support/chat';
import { DEFAULT_MODEL, VISION_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The loaded picture of a message (`message-image` marks it, on the image or its wrapper). */
const shownImage = (message: Locator) =>
  message.locator('img[data-testid="message-image"], [data-testid="message-image"] img');

test.describe('chat: images', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('an image goes with the question to a vision model and stays shown with it', async ({
    page,
    request,
  }, testInfo) => {
    const user = await registerViaApi(request, { prefix: 'cimg' });
    const api = await ChatApi.login(request, user);
    const file = testInfo.outputPath(`dot-${uniqueToken()}.png`);
    fs.writeFileSync(file, PNG);

    const conversation = await api.createConversation({ model_name: VISION_MODEL.name, title: 'Picture' });
    await openChat(page, user, conversation.id);
    await expect(page.getByTestId('chat-model-tag')).toHaveText(VISION_MODEL.display_name);
    await expect(page.getByTestId('chat-image-tag')).toHaveText('支持图片');

    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/chat/upload-image'));
    await page.getByTestId('image-input').setInputFiles(file);
    expect((await uploaded).status()).toBe(200);
    await expect(toast(page, '图片上传成功')).toBeVisible();
    const preview = page.getByTestId('image-preview');
    await expect(preview).toContainText('dot-');
    await expect(preview.locator('img')).toHaveJSProperty('naturalWidth', 1);

    const marker = `m-${uniqueToken()}`;
    await typeAndSend(page, `What is in the picture ${marker}`);
    await expect(preview).toHaveCount(0);
    const answer = messages(page, 'assistant').last();
    await expect(answer).toHaveAttribute('data-status', 'complete');
    await expect(answer).toContainText('Image received: yes (image/png)');
    const question = messages(page, 'user').last();
    await expect(question.getByTestId('message-image')).toBeVisible();
    await expect(shownImage(question)).toHaveJSProperty('naturalWidth', 1);

    // The upstream got the picture as an image part of the question.
    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    expect(upstream).toMatchObject({ model: VISION_MODEL.name, hasImage: true, imageMime: 'image/png' });
    const sent = upstream.messages.at(-1);
    expect(sent?.role).toBe('user');
    const parts = sent?.content as { type: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type).sort()).toEqual(['image_url', 'text']);
    expect(parts.find((p) => p.type === 'image_url')?.image_url?.url).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );

    expect(await api.remaining()).toBe(1000 - VISION_MODEL.credits_per_chat);

    await page.reload();
    await expect(shownImage(messages(page, 'user'))).toHaveJSProperty('naturalWidth', 1);

    // The export names the picture under its question.
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-button').click();
    const exported = fs.readFileSync(await (await downloading).path(), 'utf8');
    expect(exported).toContain(`\n图片: ${path.basename(file)}\nWhat is in the picture ${marker}\n`);
  });

  test('the upload button is offered only while the model accepts images', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cnoimg' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Text only' });
    await openChat(page, user, conversation.id);
    await expect(page.getByTestId('chat-model-tag')).toHaveText(DEFAULT_MODEL.display_name);
    await expect(page.getByTestId('send-button')).toBeVisible();
    await expect(page.getByTestId('image-upload-button')).toHaveCount(0);
    await expect(page.getByTestId('image-input')).toHaveCount(0);
    await expect(page.getByTestId('chat-image-tag')).toHaveCount(0);

    // The model picker lists prices and switches the conversation's model.
    await page.getByTestId('model-picker').click();
    const option = page.getByTestId(`model-option-${VISION_MODEL.name}`);
    await expect(option).toContainText(`${VISION_MODEL.credits_per_chat} 积分/次`);
    await expect(page.getByTestId(`model-option-${DEFAULT_MODEL.name}`)).toHaveAttribute('aria-checked', 'true');
    await option.click();
    await expect(toast(page, `已切换到 ${VISION_MODEL.display_name}`)).toBeVisible();
    await expect(page.getByTestId('image-upload-button')).toBeVisible();
    await expect(page.getByTestId('chat-image-tag')).toBeVisible();
    expect((await api.conversation(conversation.id)).model_name).toBe(VISION_MODEL.name);

    await page.getByTestId('model-picker').click();
    await page.getByTestId(`model-option-${DEFAULT_MODEL.name}`).click();
    await expect(page.getByTestId('image-upload-button')).toHaveCount(0);
    await expect(page.getByTestId('chat-model-tag')).toHaveText(DEFAULT_MODEL.display_name);

    // The server refuses an image for a model without image support, too.
    const upload = await request.post('/api/chat/upload-image', {
      headers: api.headers,
      multipart: { image: { name: 'dot.png', mimeType: 'image/png', buffer: PNG } },
    });
    expect(upload.status()).toBe(200);
    const fileId = ((await upload.json()) as { data: { id: string } }).data.id;
    const refused = await api.raw('POST', `/chat/conversations/${conversation.id}/messages`, {
      content: 'with image',
      file_id: fileId,
      stream: false,
    });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('MODEL_NO_IMAGE');
  });
});
