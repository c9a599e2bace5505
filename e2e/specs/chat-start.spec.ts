import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { titleFromQuestion } from '../../apps/server/src/modules/chat/auto-title';
import {
  ChatApi,
  conversationAction,
  conversationItem,
  messages,
  openChat,
  openConversationId,
  TALL_DESKTOP,
  typeAndSend,
  upstreamRequest,
} from '../support/chat';
import { AdminApi } from '../support/admin';
import { DEFAULT_MODEL, VISION_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test.describe('chat: starting at once', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('/chat opens the conversation used last and replaces the address', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'clast' });
    const api = await ChatApi.login(request, user);
    const usedTitle = `Used last ${uniqueToken()}`;
    const used = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: usedTitle });
    const created = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Created last' });
    // A turn in the older conversation makes it the most recently updated one.
    await api.send(used.id, `Carry on ${uniqueToken()}`);
    const [usedNow, createdNow] = await Promise.all([api.conversation(used.id), api.conversation(created.id)]);
    expect(Date.parse(usedNow.updated_at)).toBeGreaterThan(Date.parse(createdNow.updated_at));

    await openChat(page, user);
    await expect(page).toHaveURL(new RegExp(`/chat\\?c=${used.id}$`));
    await expect(page.getByTestId('chat-header-title')).toHaveText(usedTitle);
    await expect(conversationItem(page, used.id)).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('conversation-item')).toHaveCount(2);
    await expect(messages(page)).toHaveCount(2);
    await expect(page.getByTestId('empty-state')).toHaveCount(0);

    // Replaced, not pushed: "back" leaves the chat instead of landing on /chat again.
    await page.goBack();
    await expect(page).not.toHaveURL(/\/chat/);
  });

  test('the welcome screen starts the chat on the chosen model with its image and settings, listed once sent', async ({
    page,
    request,
  }, testInfo) => {
    const user = await registerViaApi(request, { prefix: 'cfirst' });
    const api = await ChatApi.login(request, user);
    const file = testInfo.outputPath(`dot-${uniqueToken()}.png`);
    fs.writeFileSync(file, PNG);

    await openChat(page, user);
    await expect(page.getByTestId('empty-state')).toBeVisible();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByTestId('chat-header-title')).toHaveText('新对话');
    await expect(page.getByTestId('chat-model-tag')).toHaveText(DEFAULT_MODEL.display_name);
    // The default model takes no images: no image button until one that does is chosen.
    await expect(page.getByTestId('image-upload-button')).toHaveCount(0);
    await expect(page).toHaveTitle(/^AI 对话 · ./);

    // Optional settings in a drawer, kept for the first message.
    const prompt = `Answer like a pirate ${uniqueToken()}`;
    await page.getByTestId('chat-header-settings').click();
    await page.getByTestId('new-chat-system-prompt').fill(prompt);
    await page.getByTestId('new-chat-apply').click();
    await expect(page.getByTestId('new-chat-settings')).toBeHidden();

    // A model other than the default one, and an image, on the welcome screen.
    await page.getByTestId('model-picker').click();
    await page.getByTestId(`model-option-${VISION_MODEL.name}`).click();
    await expect(page.getByTestId('chat-model-tag')).toHaveText(VISION_MODEL.display_name);
    await expect(page.getByTestId('chat-image-tag')).toBeVisible();
    await expect(page.getByTestId('chat-credits')).toContainText(`每次对话 ${VISION_MODEL.credits_per_chat} 积分`);
    await page.getByTestId('image-input').setInputFiles(file);
    await expect(page.getByTestId('image-preview')).toContainText('dot-');

    // Nothing is listed, here or on the server, before the first message.
    await expect(page.getByTestId('conversation-item')).toHaveCount(0);
    expect(await api.conversations()).toEqual([]);

    const marker = `m-${uniqueToken()}`;
    const question = `What is this ${marker}`;
    await typeAndSend(page, question);

    await expect(page).toHaveURL(/\/chat\?c=/);
    const id = openConversationId(page);
    const item = conversationItem(page, id);
    await expect(item).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('conversation-item')).toHaveCount(1);
    await expect(page.getByTestId('chat-input')).toHaveValue('');
    await expect(page.getByTestId('image-preview')).toHaveCount(0);
    await expect(messages(page, 'user')).toContainText(question);
    await expect(messages(page, 'user').getByTestId('message-image')).toBeVisible();
    const answer = messages(page, 'assistant');
    await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
    await expect(answer).toContainText('Image received: yes (image/png)');

    // The chosen model answered, with the image and the system prompt.
    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    expect(upstream).toMatchObject({ model: VISION_MODEL.name, hasImage: true, outcome: 'completed' });
    expect(upstream.messages[0]).toEqual({ role: 'system', content: prompt });

    // The server names the conversation after the first question; the tab follows, and a rename.
    const title = titleFromQuestion(question);
    await expect(item.getByTestId('conversation-title')).toHaveText(title);
    await expect(item).toContainText('2 条消息');
    await expect(page.getByTestId('chat-header-title')).toHaveText(title);
    await expect(page).toHaveTitle(new RegExp(`^${title} · .`));
    expect(await api.conversation(id)).toMatchObject({
      model_name: VISION_MODEL.name,
      title,
      system_prompt: prompt,
      message_count: 2,
    });
    expect(await api.remaining()).toBe(1000 - VISION_MODEL.credits_per_chat);

    const renamed = `Renamed ${uniqueToken()}`;
    await conversationAction(page, id, 'rename');
    await page.getByTestId('conversation-rename-input').fill(renamed);
    await page.getByTestId('conversation-rename-input').press('Enter');
    await expect(page).toHaveTitle(new RegExp(`^${renamed} · .`));

    // "New chat" opens an empty chat at once, with the default model again.
    await page.getByTestId('chat-new-button').click();
    await expect(page.getByTestId('empty-state')).toBeVisible();
    await expect(page.getByTestId('chat-header-title')).toHaveText('新对话');
    await expect(page.getByTestId('chat-model-tag')).toHaveText(DEFAULT_MODEL.display_name);
    await expect(item).not.toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveTitle(/^AI 对话 · ./);
  });

  test('a refused first message (too few credits, too long) leaves no conversation and keeps the text', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cpoor' });
    const admin = await AdminApi.login(request);
    const set = await admin.raw('POST', `/admin/users/${user.id}/credits`, {
      operation: 'set',
      amount: DEFAULT_MODEL.credits_per_chat - 1,
      reason: 'below one chat',
    });
    expect(set.status()).toBe(200);
    const api = await ChatApi.login(request, user);

    await openChat(page, user);
    await expect(page.getByTestId('empty-state')).toBeVisible();
    const question = `Too poor ${uniqueToken()}`;
    await typeAndSend(page, question);
    await expect(
      toast(
        page,
        `积分不足：需要 ${DEFAULT_MODEL.credits_per_chat} 积分，当前余额 ${DEFAULT_MODEL.credits_per_chat - 1}`,
      ),
    ).toBeVisible();
    await expect(page.getByTestId('chat-input')).toHaveValue(question);
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByTestId('conversation-item')).toHaveCount(0);
    const listed = await api.raw('GET', '/chat/conversations');
    expect(listed.status()).toBe(200);
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);

    // Refused by the server after the conversation was made: it is undone, the text comes back.
    expect(
      (
        await admin.raw('POST', `/admin/users/${user.id}/credits`, { operation: 'set', amount: 1000, reason: 'back' })
      ).status(),
    ).toBe(200);
    await page.reload();
    await expect(page.getByTestId('empty-state')).toBeVisible({ timeout: 30_000 });
    const tooLong = `${uniqueToken()} ${'x'.repeat(100_000)}`;
    await page.getByTestId('chat-input').fill(tooLong);
    const undone = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().includes('/api/chat/conversations/'),
    );
    await page.getByTestId('chat-input').press('Enter');
    expect((await undone).status()).toBe(200);
    await expect(toast(page, '消息内容过长')).toBeVisible();
    await expect(page.getByTestId('empty-state')).toBeVisible();
    await expect(page.getByTestId('chat-input')).toHaveValue(tooLong);
    await expect(page.getByTestId('conversation-item')).toHaveCount(0);
    expect(await api.conversations()).toEqual([]);
    expect(await api.remaining()).toBe(1000);
  });
});
