import { expect, test } from '@playwright/test';
import {
  ChatApi,
  conversationAction,
  conversationItem,
  messages,
  openChat,
  TALL_DESKTOP,
  typeAndSend,
  upstreamRequest,
} from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

test.describe('chat: conversations', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('settings change the title, system prompt and priority; the list reorders and search filters it', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cconv' });
    const api = await ChatApi.login(request, user);
    const older = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Older one' });
    const newer = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Newer one' });
    await openChat(page, user, older.id);
    const items = page.getByTestId('conversation-item');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toHaveAttribute('data-id', newer.id);

    await conversationAction(page, older.id, 'settings');
    const title = page.getByTestId('settings-title');
    await expect(title).toHaveValue('Older one');
    const renamed = `Renamed ${uniqueToken()}`;
    await title.fill(renamed);
    await page.getByTestId('settings-system-prompt').fill('You are a terse pirate.');
    await page.getByTestId('settings-priority').fill('5');
    await page.getByTestId('settings-submit').click();
    await expect(toast(page, '对话设置已保存')).toBeVisible();
    await expect(title).toBeHidden();

    await expect(items.first()).toHaveAttribute('data-id', older.id);
    await expect(items.first().getByTestId('conversation-priority')).toHaveText('5');
    await expect(items.first().getByTestId('conversation-title')).toHaveText(renamed);
    await expect(page.getByTestId('chat-header-title')).toHaveText(renamed);
    expect(await api.conversation(older.id)).toMatchObject({ title: renamed, priority: 5 });

    // The system prompt goes to the model first.
    const marker = `m-${uniqueToken()}`;
    await typeAndSend(page, `Ahoy ${marker}`);
    await expect(messages(page, 'assistant')).toHaveAttribute('data-status', 'complete');
    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    expect(upstream.messages[0]).toEqual({ role: 'system', content: 'You are a terse pirate.' });

    const search = page.getByTestId('chat-search');
    await search.fill('renamed');
    await expect(items).toHaveCount(1);
    await expect(items.first()).toHaveAttribute('data-id', older.id);
    await search.fill(`nothing-${uniqueToken()}`);
    await expect(items).toHaveCount(0);
    await expect(page.getByTestId('chat-sidebar')).toContainText('没有匹配的对话');
    await search.fill('');
    await expect(items).toHaveCount(2);
  });

  test('clearing empties a conversation; deleting removes it and returns to the welcome screen', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cclr' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Short-lived' });
    await api.send(conversation.id, `Something ${uniqueToken()}`);
    await openChat(page, user, conversation.id);
    const item = conversationItem(page, conversation.id);
    await expect(messages(page)).toHaveCount(2);
    await expect(item).toContainText('2 条消息');

    await page.getByTestId('clear-button').click();
    await page.getByTestId('clear-confirm').click();
    await expect(toast(page, '对话已清空')).toBeVisible();
    await expect(page.getByTestId('empty-conversation')).toBeVisible();
    await expect(item).toContainText('0 条消息');
    expect(await api.messages(conversation.id)).toEqual([]);
    expect((await api.conversation(conversation.id)).total_tokens).toBe(0);

    await conversationAction(page, conversation.id, 'delete');
    await page.getByTestId('conversation-delete-confirm').click();
    await expect(toast(page, '对话已删除')).toBeVisible();
    await expect(item).toHaveCount(0);
    await expect(page.getByTestId('empty-state')).toBeVisible();
    await expect(page).toHaveURL(/\/chat$/);
    expect((await api.raw('GET', `/chat/conversations/${conversation.id}`)).status()).toBe(404);
  });
});
