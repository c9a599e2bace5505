import { expect, test } from '@playwright/test';
import { ChatApi, conversationItem, messages, openConversationId, typeAndSend } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { signInDirect } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

test.describe('chat on a phone (375 px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('/chat opens the last conversation; the list is a drawer that opens and makes conversations', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cmob' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Pocket chat' });
    await signInDirect(page, user.email, user.password, null);
    await page.goto('/chat');

    // The only conversation is the last one used: it opens without the drawer.
    await expect(page).toHaveURL(new RegExp(`c=${conversation.id}`));
    await expect(page.getByTestId('chat-header-title')).toHaveText('Pocket chat');
    await expect(page.getByTestId('chat-sidebar')).toBeHidden();

    // A new chat from the drawer: shown at once, drawer closed; its settings open in a
    // drawer that fits the phone, and it is made by its first message.
    await page.getByTestId('chat-sidebar-toggle').click();
    const sidebar = page.getByTestId('chat-sidebar');
    await expect(sidebar).toBeVisible();
    await expect(page.locator('.ant-drawer-title')).toHaveText('对话列表');
    const box = await sidebar.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(375);
    await page.getByTestId('chat-new-button').click();
    await expect(sidebar).toBeHidden();
    await expect(page.getByTestId('chat-header-title')).toHaveText('新对话');
    await page.getByTestId('chat-header-settings').click();
    const settings = page.getByTestId('new-chat-settings');
    await expect(settings).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByTestId('new-chat-title').fill('Second on phone');
    await page.getByTestId('new-chat-apply').click();
    await expect(settings).toBeHidden();
    await typeAndSend(page, `Second ${uniqueToken()}`);
    await expect(page.getByTestId('chat-header-title')).toHaveText('Second on phone');
    await expect(page).toHaveURL(/c=/);
    expect(openConversationId(page)).not.toBe(conversation.id);

    // Back to the first one through the drawer.
    await page.getByTestId('chat-sidebar-toggle').click();
    await expect(sidebar).toBeVisible();
    await conversationItem(page, conversation.id).click();
    await expect(sidebar).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`c=${conversation.id}`));
    await expect(page.getByTestId('chat-header-title')).toHaveText('Pocket chat');

    const text = `From the phone ${uniqueToken()}`;
    await typeAndSend(page, text);
    await expect(messages(page, 'user')).toContainText(text);
    const answer = messages(page, 'assistant');
    await expect(answer).toHaveAttribute('data-status', 'complete');
    await expect(answer).toContainText(`Echo: ${text}`);
    await expect(answer.getByTestId('message-tokens')).toBeVisible();
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect((await api.messages(conversation.id)).map((m) => m.role)).toEqual(['user', 'assistant']);

    await page.getByTestId('chat-sidebar-toggle').click();
    await expect(conversationItem(page, conversation.id)).toContainText('2 条消息');
  });
});
