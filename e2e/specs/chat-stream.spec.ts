import { expect, test } from '@playwright/test';
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
import { FAKE_API_KEY } from '../support/global-setup';
import { DEFAULT_MODEL, PLAIN_MODEL, SLOW_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

test.describe('chat: sending and streaming', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('a new chat with a title from its settings streams a markdown answer and charges the model price once', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cstr' });
    const api = await ChatApi.login(request, user);
    const before = await api.remaining();
    expect(before).toBe(1000);

    await openChat(page, user);
    await expect(page.getByTestId('empty-state')).toContainText('欢迎使用 AI 对话');
    await page.getByTestId('welcome-settings').click();
    const title = `Stream ${uniqueToken()}`;
    await page.getByTestId('new-chat-title').fill(title);
    // The default model is preselected.
    await expect(page.getByTestId('new-chat-model')).toContainText(DEFAULT_MODEL.display_name);
    await page.getByTestId('new-chat-apply').click();
    await expect(page.getByTestId('new-chat-title')).toBeHidden();
    // Nothing exists on the server until the first message.
    await expect(page.getByTestId('chat-header-title')).toHaveText(title);
    await expect(page.getByTestId('chat-model-tag')).toHaveText(DEFAULT_MODEL.display_name);
    await expect(page.getByTestId('conversation-item')).toHaveCount(0);
    await expect(page.getByTestId('chat-credits')).toHaveText(
      `余额：1,000 积分 · 每次对话 ${DEFAULT_MODEL.credits_per_chat} 积分`,
    );

    // Slow enough (50 ms between ~60 chunks) to watch the answer grow.
    const marker = `m-${uniqueToken()}`;
    const question = `Please answer ${marker} [fake:delay=50]`;
    await typeAndSend(page, question);
    await expect(page).toHaveURL(/\/chat\?c=/);
    const id = openConversationId(page);
    await expect(conversationItem(page, id)).toContainText(title);
    await expect(page.getByTestId('chat-input')).toHaveValue('');
    await expect(page.getByTestId('stop-button')).toBeVisible();
    // The box stays open for the next message while the answer streams.
    await expect(page.getByTestId('chat-input')).toBeEnabled();

    const answer = messages(page, 'assistant').last();
    await expect(messages(page, 'user').last()).toHaveText(new RegExp(`Please answer ${marker}`));
    await expect(answer).toContainText(`Echo: ${question}`);
    const partial = await answer.locator('.chat-bubble').innerText();
    await expect(answer).toHaveAttribute('data-status', 'streaming');
    await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
    const final = await answer.locator('.chat-bubble').innerText();
    expect(final.length).toBeGreaterThan(partial.length);
    expect(final.startsWith(partial.trim().slice(0, 20))).toBe(true);

    // The markdown is rendered: heading, list, highlighted code, both formulas by KaTeX.
    await expect(answer.getByRole('heading', { name: 'Answer' })).toBeVisible();
    await expect(answer.locator('li')).toHaveText(['first item', 'second item']);
    const code = answer.locator('pre code');
    await expect(code).toContainText('function add(a: number, b: number): number {');
    await expect(code.locator('.hljs-keyword').first()).toHaveText('function');
    await expect(answer.locator('.katex')).toHaveCount(2);
    await expect(answer.locator('.katex').first()).toBeVisible();
    await expect(answer.locator('.katex annotation').first()).toHaveText('E = mc^2');
    await expect(answer).not.toContainText('$');

    await expect(page.getByTestId('send-button')).toBeVisible();
    await expect(page.getByTestId('chat-input')).toBeEnabled();

    // The server stored exactly what the fake sent, with its token count.
    const stored = await api.messages(id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored[0]?.content).toBe(question);
    expect(stored[1]?.content).toBe(fakeAnswer(question));
    expect(stored[1]?.status).toBe('complete');
    const tokens = stored[1]?.tokens ?? 0;
    expect(tokens).toBeGreaterThan(0);
    await expect(answer.getByTestId('message-tokens')).toHaveText(`${tokens} tokens`);
    await expect(answer).toHaveAttribute('data-id', stored[1]?.id ?? '');

    // Charged exactly the model's price, shown in the input area and the sidebar count.
    expect(await api.remaining()).toBe(before - DEFAULT_MODEL.credits_per_chat);
    await expect(page.getByTestId('chat-credits')).toContainText('余额：990 积分');
    await expect(conversationItem(page, id)).toContainText('2 条消息');

    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    expect(upstream).toMatchObject({
      model: DEFAULT_MODEL.name,
      stream: true,
      outcome: 'completed',
      authorization: `Bearer ${FAKE_API_KEY}`,
      hasImage: false,
    });

    // After a reload the answer is read back from the server.
    await page.reload();
    await expect(messages(page)).toHaveCount(2);
    await expect(messages(page, 'assistant').locator('.katex')).toHaveCount(2);
    await expect(messages(page, 'assistant').getByTestId('message-tokens')).toHaveText(`${tokens} tokens`);
  });

  test('stop half-way keeps the partial answer, marked stopped, and the upstream call is closed', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cstop' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: SLOW_MODEL.name, title: 'Slow one' });
    await openChat(page, user, conversation.id);
    await expect(page.getByTestId('chat-model-tag')).toHaveText(SLOW_MODEL.display_name);
    await expect(page.getByTestId('chat-credits')).toContainText(`每次对话 ${SLOW_MODEL.credits_per_chat} 积分`);

    // About 180 chunks 150 ms apart: far from done when stopped.
    const marker = `m-${uniqueToken()}`;
    const question = `Long one ${marker} [fake:delay=150] [fake:repeat=3]`;
    await typeAndSend(page, question);
    const answer = messages(page, 'assistant').last();
    await expect(answer).toContainText('first item');
    await expect(answer).toHaveAttribute('data-status', 'streaming');
    // The tab names the conversation.
    await expect(page).toHaveTitle(/^Slow one · ./);
    // Stopped from the keyboard: the button goes away and the focus goes on to the text box.
    await page.getByTestId('stop-button').focus();
    await page.keyboard.press('Enter');

    await expect(toast(page, '已停止生成')).toBeVisible();
    await expect(answer).toHaveAttribute('data-status', 'stopped');
    await expect(answer.getByTestId('message-stopped')).toHaveText('[已停止生成]');
    await expect(answer).toContainText(`Echo: ${question}`);
    await expect(page.getByTestId('send-button')).toBeVisible();
    await expect(page.getByTestId('chat-input')).toBeEnabled();
    await expect(page.getByTestId('stop-button')).toHaveCount(0);
    await expect(page.getByTestId('chat-input')).toBeFocused();

    // The message list is a named scroll region that shows keyboard focus (its scroller turns
    // the outline off inline).
    const list = page.getByTestId('message-list');
    await expect(list).toHaveAccessibleName('消息列表');
    await page.keyboard.press('Shift+Tab');
    await list.focus();
    expect(await list.evaluate((el) => el.matches(':focus-visible') && getComputedStyle(el).outlineStyle)).toBe(
      'solid',
    );

    // The abort reached the upstream: the server closed its connection before the end.
    const full = fakeAnswer(question, { repeat: 3 });
    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    expect(upstream.outcome).toBe('client-closed');
    expect(upstream.model).toBe(SLOW_MODEL.name);
    expect(upstream.chunksSent).toBeGreaterThan(0);
    expect(upstream.chunksSent).toBeLessThan(full.match(/\s*\S+\s*/g)?.length ?? 0);

    // The server kept the partial text as a stopped answer.
    let stored: Awaited<ReturnType<typeof api.messages>> = [];
    await expect
      .poll(async () => {
        stored = await api.messages(conversation.id);
        return stored[1]?.status;
      })
      .toBe('stopped');
    const partial = stored[1]?.content ?? '';
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(full.length);
    expect(full.startsWith(partial)).toBe(true);

    await page.reload();
    const reloaded = messages(page, 'assistant');
    await expect(reloaded).toHaveCount(1);
    await expect(reloaded).toHaveAttribute('data-status', 'stopped');
    await expect(reloaded.getByTestId('message-stopped')).toHaveText('[已停止生成]');
    await expect(reloaded).toContainText('first item');

    // A stopped answer that produced text stays charged, once.
    expect(await api.remaining()).toBe(1000 - SLOW_MODEL.credits_per_chat);
    const ledger = await api.ledger();
    expect(ledger.filter((e) => e.transaction_type === 'chat_consume').map((e) => e.amount)).toEqual([
      -SLOW_MODEL.credits_per_chat,
    ]);
    expect(ledger.filter((e) => e.transaction_type === 'system_refund')).toEqual([]);
    await expect(page.getByTestId('chat-credits')).toContainText('余额：997 积分');
  });

  test('a reload does not stop the answer: the page attaches to it again, and Stop works on it', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cres' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Resumed' });
    await openChat(page, user, conversation.id);

    // About 120 chunks 40 ms apart: reloaded early, it goes on and ends complete.
    const first = `Reload me ${uniqueToken()} [fake:delay=40] [fake:repeat=2]`;
    await typeAndSend(page, first);
    await expect(messages(page, 'assistant').last()).toContainText('Echo: Reload me');
    await page.reload();
    const resumed = messages(page, 'assistant').last();
    await expect(resumed).toHaveAttribute('data-status', 'streaming');
    await expect(page.getByTestId('stop-button')).toBeVisible();
    await expect(resumed).toHaveAttribute('data-status', 'complete', { timeout: 15_000 });
    const stored = await api.messages(conversation.id);
    expect(stored[1]).toMatchObject({ status: 'complete', content: fakeAnswer(first, { repeat: 2 }) });
    await expect(resumed.locator('.katex')).toHaveCount(4);
    await expect(resumed.getByTestId('message-tokens')).toHaveText(`${stored[1]?.tokens ?? 0} tokens`);
    expect((await upstreamRequest(first, (r) => r.outcome !== 'pending')).outcome).toBe('completed');

    // A long answer, reloaded, then stopped from the attached page.
    const marker = `m-${uniqueToken()}`;
    const second = `Stop me after a reload ${marker} [fake:delay=100] [fake:repeat=3]`;
    await typeAndSend(page, second);
    await expect(messages(page, 'assistant').last()).toContainText(`Echo: ${second}`);
    await page.reload();
    const attached = messages(page, 'assistant').last();
    await expect(attached).toHaveAttribute('data-status', 'streaming');
    await expect(attached).toContainText('first item');
    await page.getByTestId('stop-button').click();
    await expect(attached).toHaveAttribute('data-status', 'stopped');
    await expect(page.getByTestId('send-button')).toBeVisible();
    expect((await upstreamRequest(marker, (r) => r.outcome !== 'pending')).outcome).toBe('client-closed');
    await expect.poll(async () => (await api.messages(conversation.id))[3]?.status).toBe('stopped');
    // Both answers charged once each.
    expect(await api.remaining()).toBe(1000 - 2 * DEFAULT_MODEL.credits_per_chat);
  });

  test('a model without streaming answers in one piece through the non-stream call', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cplain' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: PLAIN_MODEL.name, title: 'Plain' });
    await openChat(page, user, conversation.id);

    const marker = `m-${uniqueToken()}`;
    const question = `Whole answer ${marker}`;
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith(`/api/chat/conversations/${conversation.id}/messages`),
    );
    await typeAndSend(page, question);
    expect((await sent).postDataJSON()).toMatchObject({ content: question, stream: false });

    const answer = messages(page, 'assistant').last();
    await expect(answer).toHaveAttribute('data-status', 'complete');
    await expect(answer.locator('li')).toHaveText(['first item', 'second item']);
    await expect(answer.getByTestId('message-tokens')).toBeVisible();
    const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
    expect(upstream).toMatchObject({ model: PLAIN_MODEL.name, stream: false, outcome: 'completed' });
    expect(await api.remaining()).toBe(1000 - PLAIN_MODEL.credits_per_chat);
    await expect(page.getByTestId('chat-credits')).toContainText('余额：996 积分');
  });
});
