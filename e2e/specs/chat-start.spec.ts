import { expect, test } from '@playwright/test';
import { titleFromQuestion } from '../../apps/server/src/modules/chat/auto-title';
import { fakeAnswer } from '../../apps/server/test/fake-upstream';
import {
  ChatApi,
  conversationItem,
  messages,
  openChat,
  openConversationId,
  TALL_DESKTOP,
  typeAndSend,
  upstreamRequest,
} from '../support/chat';
import { AdminApi } from '../support/admin';
import { DEFAULT_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

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

  test('typing with no conversation starts one on the default model and sends the question', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cfirst' });
    const api = await ChatApi.login(request, user);
    const before = await api.remaining();
    expect(before).toBe(1000);

    await openChat(page, user);
    await expect(page.getByTestId('empty-state')).toBeVisible();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByTestId('conversation-item')).toHaveCount(0);

    // Slow enough (50 ms between chunks) to watch the answer arrive.
    const marker = `m-${uniqueToken()}`;
    const question = `First words ${marker} [fake:delay=50]`;
    await typeAndSend(page, question);

    await expect(page).toHaveURL(/\/chat\?c=/);
    const id = openConversationId(page);
    const item = conversationItem(page, id);
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('chat-model-tag')).toHaveText(DEFAULT_MODEL.display_name);
    await expect(page.getByTestId('chat-input')).toHaveValue('');
    await expect(messages(page, 'user')).toContainText(`First words ${marker}`);

    const answer = messages(page, 'assistant');
    await expect(answer).toContainText(`Echo: ${question}`);
    await expect(answer).toHaveAttribute('data-status', 'streaming');
    await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });

    // The server names the conversation after the first question.
    const title = titleFromQuestion(question);
    await expect(item.getByTestId('conversation-title')).toHaveText(title);
    await expect(item).toContainText('2 条消息');
    await expect(page.getByTestId('chat-header-title')).toHaveText(title);
    await expect(page.getByTestId('conversation-item')).toHaveCount(1);

    expect(await api.conversation(id)).toMatchObject({ model_name: DEFAULT_MODEL.name, title, message_count: 2 });
    const stored = await api.messages(id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored[0]?.content).toBe(question);
    expect(stored[1]?.content).toBe(fakeAnswer(question));
    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    expect(upstream).toMatchObject({ model: DEFAULT_MODEL.name, stream: true, outcome: 'completed' });

    // Charged the default model's price, once.
    const after = before - DEFAULT_MODEL.credits_per_chat;
    expect(await api.remaining()).toBe(after);
    await expect(page.getByTestId('chat-credits')).toContainText(`余额：${after} 积分`);
  });

  test('with too few credits, typing with no conversation makes none and keeps the text', async ({ page, request }) => {
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
  });
});
