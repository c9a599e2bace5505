import { expect, test } from '@playwright/test';
import {
  ChatApi,
  messages,
  openChat,
  TALL_DESKTOP,
  typeAndSend,
  upstreamRequest,
  upstreamRequests,
} from '../support/chat';
import { DEFAULT_MODEL, EXPENSIVE_MODEL, PRICEY_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

test.describe('chat: credits', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('a model dearer than the balance is refused with the price and balance; nothing is charged', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cpoor' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: EXPENSIVE_MODEL.name, title: 'Too dear' });
    await openChat(page, user, conversation.id);
    const credits = page.getByTestId('chat-credits');
    await expect(credits).toHaveText(`余额：1,000 积分 · 每次对话 ${EXPENSIVE_MODEL.credits_per_chat} 积分`);
    await expect(credits).toHaveClass(/is-short/);

    let sends = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/messages')) sends += 1;
    });
    const marker = `m-${uniqueToken()}`;
    const text = `Expensive question ${marker}`;
    await typeAndSend(page, text);
    await expect(toast(page, `积分不足：需要 ${EXPENSIVE_MODEL.credits_per_chat} 积分，当前余额 1000`)).toBeVisible();
    await expect(page.getByTestId('chat-input')).toHaveValue(text);
    await expect(messages(page)).toHaveCount(0);
    await expect(page.getByTestId('empty-conversation')).toBeVisible();
    expect(sends).toBe(0);

    // The server refuses on its own as well, with the same numbers.
    const refused = await api.raw('POST', `/chat/conversations/${conversation.id}/messages`, {
      content: text,
      stream: true,
    });
    expect(refused.status()).toBe(402);
    expect(await refused.json()).toMatchObject({
      success: false,
      error: 'INSUFFICIENT_CREDITS',
      message: `积分不足，需要 ${EXPENSIVE_MODEL.credits_per_chat}，当前余额 1000`,
      data: { required: EXPENSIVE_MODEL.credits_per_chat, balance: 1000 },
    });

    expect(await api.remaining()).toBe(1000);
    expect((await api.ledger()).map((e) => e.transaction_type)).toEqual(['system_reward']);
    expect(await api.messages(conversation.id)).toEqual([]);
    expect(await upstreamRequests(marker)).toEqual([]);
  });

  test('when the balance ran short meanwhile, the server refuses; the text comes back and the balance updates', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cstale' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: PRICEY_MODEL.name, title: 'Pricey' });
    await openChat(page, user, conversation.id);
    await expect(page.getByTestId('chat-credits')).toContainText('余额：1,000 积分');

    // Spent elsewhere (another tab, say): 400 left, which the open page does not know yet.
    const other = await api.createConversation({ model_name: PRICEY_MODEL.name, title: 'Elsewhere' });
    await api.send(other.id, `Spend ${uniqueToken()}`);
    expect(await api.remaining()).toBe(1000 - PRICEY_MODEL.credits_per_chat);

    const marker = `m-${uniqueToken()}`;
    const text = `One more ${marker}`;
    const answered = page.waitForResponse((r) =>
      r.url().endsWith(`/api/chat/conversations/${conversation.id}/messages`),
    );
    await typeAndSend(page, text);
    expect((await answered).status()).toBe(402);
    await expect(toast(page, `积分不足，需要 ${PRICEY_MODEL.credits_per_chat}，当前余额 400`)).toBeVisible();
    await expect(page.getByTestId('chat-input')).toHaveValue(text);
    await expect(messages(page)).toHaveCount(0);
    await expect(page.getByTestId('chat-credits')).toContainText('余额：400 积分');
    await expect(page.getByTestId('chat-credits')).toHaveClass(/is-short/);

    expect(await api.remaining()).toBe(400);
    expect(await api.messages(conversation.id)).toEqual([]);
    expect(await upstreamRequests(marker)).toEqual([]);
  });

  test('an upstream failure before any output shows the error in place with a retry, and refunds', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cfail' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Failing' });
    await openChat(page, user, conversation.id);
    await expect(page.getByTestId('chat-credits')).toContainText('余额：1,000 积分');

    const marker = `m-${uniqueToken()}`;
    const text = `This will fail ${marker} [fake:error]`;
    await typeAndSend(page, text);
    // The error stands where the answer would have, under the question; nothing goes back
    // into the box (a second paid send would be one click away) and no toast is needed.
    const failed = page.getByTestId('message-failed');
    await expect(failed).toContainText('AI 服务暂时不可用，请稍后再试');
    await expect(messages(page)).toHaveCount(2);
    await expect(messages(page).first()).toContainText(text);
    await expect(toast(page, 'AI 服务暂时不可用，请稍后再试')).toHaveCount(0);
    // The upstream's own message (with what might be a secret) is not shown.
    await expect(page.getByText('FAKE-UPSTREAM-SECRET')).toHaveCount(0);
    await expect(page.getByTestId('chat-input')).toHaveValue('');
    await expect(page.getByTestId('chat-input')).toBeEnabled();
    await expect(page.getByTestId('send-button')).toBeVisible();
    await expect(page.getByTestId('chat-credits')).toContainText('余额：1,000 积分');

    const upstream = await upstreamRequest(marker);
    expect(upstream.outcome).toBe('error');

    // Charged on sending, refunded at once: the ledger shows both, the balance is whole.
    await expect.poll(() => api.remaining()).toBe(1000);
    const ledger = await api.ledger();
    expect(ledger.filter((e) => e.transaction_type === 'chat_consume').map((e) => e.amount)).toEqual([
      -DEFAULT_MODEL.credits_per_chat,
    ]);
    expect(ledger.filter((e) => e.transaction_type === 'system_refund').map((e) => e.amount)).toEqual([
      DEFAULT_MODEL.credits_per_chat,
    ]);
    // The server keeps the question, marked unanswered; only the empty answer is gone.
    expect((await api.messages(conversation.id)).map((m) => [m.role, m.status, m.content])).toEqual([
      ['user', 'unanswered', text],
    ]);
    expect((await api.conversation(conversation.id)).message_count).toBe(1);

    // Retry sends the same question again in place of the failed pair (it fails again here,
    // the directive being part of the question): one failed pair on screen, one more refund.
    await page.getByTestId('message-retry').click();
    await expect.poll(async () => (await upstreamRequests(marker)).length).toBe(2);
    await expect(page.getByTestId('message-failed')).toHaveCount(1);
    await expect(messages(page)).toHaveCount(2);
    await expect
      .poll(async () => (await api.ledger()).filter((e) => e.transaction_type === 'system_refund').length)
      .toBe(2);
    await expect.poll(() => api.remaining()).toBe(1000);

    // Retry replaced the unanswered question rather than adding a second one.
    expect((await api.messages(conversation.id)).map((m) => [m.role, m.status])).toEqual([['user', 'unanswered']]);

    // After a reload the question is still there with the same reason as live, and retry.
    const liveFailure = await page.getByTestId('message-failed').locator('span').first().textContent();
    await page.reload();
    await expect(messages(page)).toHaveCount(2);
    await expect(messages(page).first()).toContainText(text);
    await expect(page.getByTestId('message-failed')).toContainText('AI 服务暂时不可用，请稍后再试');
    await expect(page.getByTestId('message-failed').locator('span').first()).toHaveText(liveFailure ?? '');
    await expect(page.getByTestId('message-retry')).toBeVisible();
    await expect(page.getByTestId('chat-credits')).toContainText('余额：1,000 积分');
  });
});
