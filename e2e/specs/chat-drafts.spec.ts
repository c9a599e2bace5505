import { type Page, expect, test } from '@playwright/test';
import { ChatApi, conversationItem, messages, openChat, TALL_DESKTOP } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { registerViaApi, uniqueToken } from '../support/users';

/** Drops the browser's copies of the drafts, so that only the server's can bring them back. */
const forgetLocalDrafts = (page: Page) =>
  page.evaluate(() => {
    for (const key of Object.keys(window.localStorage))
      if (key.startsWith('aiplatform-chat-draft:')) window.localStorage.removeItem(key);
  });

test.describe('chat: drafts', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('each conversation keeps its own unsent text, on the server too, until it is sent', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cdraft' });
    const api = await ChatApi.login(request, user);
    const a = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Draft A' });
    const b = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Draft B' });
    const textA = `Half-written question for A ${uniqueToken()}\nsecond line`;
    const textB = `Something else for B ${uniqueToken()}`;
    const input = page.getByTestId('chat-input');

    await openChat(page, user, a.id);
    await expect(page.getByTestId('chat-header-title')).toHaveText('Draft A');
    await input.fill(textA);

    await conversationItem(page, b.id).click();
    await expect(page.getByTestId('chat-header-title')).toHaveText('Draft B');
    await expect(page).toHaveURL(new RegExp(`c=${b.id}`));
    await expect(input).toHaveValue('');
    await input.fill(textB);

    await conversationItem(page, a.id).click();
    await expect(page.getByTestId('chat-header-title')).toHaveText('Draft A');
    await expect(input).toHaveValue(textA);
    await conversationItem(page, b.id).click();
    await expect(input).toHaveValue(textB);

    // Saved on the server about a second after typing stopped.
    await expect.poll(async () => (await api.conversation(a.id)).draft?.content).toBe(textA);
    await expect.poll(async () => (await api.conversation(b.id)).draft?.content).toBe(textB);

    await forgetLocalDrafts(page);
    await page.goto(`/chat?c=${a.id}`);
    await expect(page.getByTestId('chat-header-title')).toHaveText('Draft A');
    await expect(input).toHaveValue(textA);
    await conversationItem(page, b.id).click();
    await expect(input).toHaveValue(textB);

    // Sending clears the draft, here and on the server; B keeps its own.
    await conversationItem(page, a.id).click();
    await expect(input).toHaveValue(textA);
    await page.getByTestId('send-button').click();
    await expect(messages(page, 'assistant')).toHaveAttribute('data-status', 'complete');
    await expect(input).toHaveValue('');
    await expect.poll(async () => (await api.conversation(a.id)).draft).toBeNull();

    await page.reload();
    await expect(messages(page, 'user')).toContainText('second line');
    await expect(input).toHaveValue('');
    await conversationItem(page, b.id).click();
    await expect(input).toHaveValue(textB);
  });
});
