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
import { AdminApi } from '../support/admin';
import { DEFAULT_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

test.describe('chat: formulas and the composer', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('a $$ formula on its own line is a centred display block; $…$ stays inline', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cmath' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Formulas' });
    await openChat(page, user, conversation.id);

    // The fake echoes the question, then adds `$E = mc^2$` and a `$$a^2 + b^2 = c^2$$` line.
    await typeAndSend(page, `Formula ${uniqueToken()}\n$$x^2$$\nand $y$ inline`);
    const answer = messages(page, 'assistant').last();
    await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });

    const check = async () => {
      const display = answer.locator('.katex-display');
      await expect(display.locator('annotation')).toHaveText(['x^2', 'a^2 + b^2 = c^2']);
      await expect(display.first()).toHaveCSS('text-align', 'center');
      await expect(answer.locator(':not(.katex-display) > .katex annotation')).toHaveText(['y', 'E = mc^2']);
      await expect(answer).not.toContainText('$');
    };
    await check();
    // Read back from the server, the whole answer is rendered in one piece.
    await page.reload();
    await expect(messages(page)).toHaveCount(2);
    await check();
  });

  test('a question sent while an answer streams waits for it, then is sent and answered', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cqueue' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Queue' });
    await openChat(page, user, conversation.id);

    // About 60 chunks 100 ms apart: several seconds of streaming.
    const first = `First ${uniqueToken()} [fake:delay=100]`;
    const secondMarker = `q-${uniqueToken()}`;
    const second = `Second ${secondMarker}`;
    await typeAndSend(page, first);
    const firstAnswer = messages(page, 'assistant').first();
    await expect(firstAnswer).toHaveAttribute('data-status', 'streaming');

    const input = page.getByTestId('chat-input');
    await expect(input).toBeEnabled();
    await input.fill(second);
    await input.press('Enter');
    await expect(page.getByTestId('send-queued')).toHaveText('将在当前回答结束后发送');
    await expect(page.getByTestId('stop-button')).toBeVisible();
    await expect(page.getByTestId('send-button')).toBeDisabled();
    // Still waiting: the question stays in the box and nothing more was sent.
    await expect(input).toHaveValue(second);
    await expect(messages(page, 'user')).toHaveCount(1);

    await expect(firstAnswer).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(messages(page)).toHaveCount(4);
    await expect(messages(page, 'user').last()).toHaveText(new RegExp(second));
    const secondAnswer = messages(page, 'assistant').last();
    await expect(secondAnswer).toContainText(`Echo: ${second}`);
    await expect(secondAnswer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
    await expect(page.getByTestId('send-queued')).toBeHidden();
    await expect(input).toHaveValue('');

    const stored = await api.messages(conversation.id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(stored[0]?.content).toBe(first);
    expect(stored[2]?.content).toBe(second);
    // The second question reached the model only after the first answer had ended.
    const firstCall = await upstreamRequest(first, (r) => r.outcome !== 'pending');
    const secondCall = await upstreamRequest(secondMarker);
    expect(secondCall.startedAt).toBeGreaterThanOrEqual(firstCall.endedAt ?? Number.POSITIVE_INFINITY);
  });

  test('editing a queued question cancels the queue', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cqedit' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Queue edit' });
    await openChat(page, user, conversation.id);

    const marker = `q-${uniqueToken()}`;
    await typeAndSend(page, `First ${uniqueToken()} [fake:delay=100]`);
    await expect(messages(page, 'assistant').first()).toHaveAttribute('data-status', 'streaming');
    const input = page.getByTestId('chat-input');
    await input.fill(`Second ${marker}`);
    await input.press('Enter');
    await expect(page.getByTestId('send-queued')).toBeVisible();
    await input.press('End');
    await input.pressSequentially(' edited');
    await expect(page.getByTestId('send-queued')).toBeHidden();

    await expect(messages(page, 'assistant').first()).toHaveAttribute('data-status', 'complete', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('stop-button')).toBeHidden();
    // Proving that nothing is sent needs a moment in which it could have been.
    await page.waitForTimeout(1_000);
    await expect(messages(page)).toHaveCount(2);
    await expect(input).toHaveValue(`Second ${marker} edited`);
    expect(await upstreamRequests(marker)).toHaveLength(0);

    await input.press('Enter');
    await expect(messages(page)).toHaveCount(4);
    await expect(messages(page, 'assistant').last()).toContainText(`Echo: Second ${marker} edited`);

    // Disabled meanwhile: the send is refused with the reason, the text stays in the box and
    // the screen stays (nothing typed is lost to a jump to the login page).
    await (await AdminApi.login(request)).setStatus(user.id, 'inactive');
    const typed = `Third ${uniqueToken()}\nwith a second line`;
    await input.fill(typed);
    await input.press('Enter');
    await expect(toast(page, '账号已被禁用，请联系管理员')).toBeVisible();
    await expect(input).toHaveValue(typed);
    await expect(messages(page)).toHaveCount(4);
    await page.waitForTimeout(1_500);
    await expect(page).toHaveURL(new RegExp(`/chat\\?c=${conversation.id}$`));
    await expect(input).toHaveValue(typed);
  });
});

test.describe('chat: jump to latest', () => {
  test('the button appears away from the bottom and brings the last message back', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cjump' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Long' });
    // Three long answers: far taller than the default window.
    for (let i = 0; i < 3; i++) await api.send(conversation.id, `Long ${i} ${uniqueToken()} [fake:repeat=3]`);
    await openChat(page, user, conversation.id);

    const jump = page.getByTestId('jump-to-latest');
    const last = messages(page, 'assistant').last();
    await expect(last).toBeInViewport();
    await expect(jump).toBeHidden();

    await page.getByTestId('message-list').hover();
    // The list may still be settling at the bottom when the first wheel turns; scroll up again
    // until it stays away from the bottom, as a person would.
    // A row that grows late may show the list briefly short of the bottom; the button must
    // stay once the user has left, so it is checked again after a moment.
    await expect(async () => {
      await page.mouse.wheel(0, -3000);
      await expect(jump).toBeVisible({ timeout: 1_000 });
      await page.waitForTimeout(500);
      await expect(jump).toBeVisible({ timeout: 0 });
    }).toPass({ timeout: 15_000 });
    await expect(jump).toHaveAttribute('aria-label', '回到最新');

    // Reachable and usable from the keyboard.
    await jump.focus();
    await page.keyboard.press('Enter');
    await expect(jump).toBeHidden();
    await expect(messages(page, 'assistant').last().getByTestId('message-tokens')).toBeInViewport();
  });
});
