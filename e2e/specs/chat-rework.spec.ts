import { type Page, expect, test } from '@playwright/test';
import { ChatApi, TALL_DESKTOP, messages, openChat, typeAndSend, upstreamRequests } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { registerViaApi, uniqueToken } from '../support/users';

const PRICE = DEFAULT_MODEL.credits_per_chat;

/** Waits until the last answer on screen has finished. */
async function answerDone(page: Page) {
  await expect(messages(page, 'assistant').last()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
}

test.describe('chat: regenerate, edit, retry and continue', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('regenerate adds a second version of the answer, billed, the first one reachable (1/2)', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'regen' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Regenerate' });
    await openChat(page, user, conversation.id);
    const marker = `r-${uniqueToken()}`;
    await typeAndSend(page, `Answer twice ${marker}`);
    await answerDone(page);
    const first = await messages(page, 'assistant').getAttribute('data-id');

    await messages(page, 'assistant').getByTestId('message-regenerate').click();
    await expect.poll(async () => (await upstreamRequests(marker)).length).toBe(2);
    await answerDone(page);
    await expect(messages(page)).toHaveCount(2);
    const answer = messages(page, 'assistant');
    await expect(answer.getByTestId('message-version-label')).toHaveText('2/2');
    const second = await answer.getAttribute('data-id');
    expect(second).not.toBe(first);
    await expect.poll(() => api.remaining()).toBe(1000 - 2 * PRICE);

    // The first version is kept: shown again through the switcher, and after a reload.
    await answer.getByTestId('message-version-previous').click();
    await expect(answer.getByTestId('message-version-label')).toHaveText('1/2');
    await expect(answer).toHaveAttribute('data-id', first ?? '');
    const stored = await api.messages(conversation.id);
    expect(stored.map((m) => m.id)).toEqual([stored[0]?.id, first]);
    expect(stored[1]?.sibling_ids).toEqual([first, second]);
  });

  test('editing a sent question adds a version of it; the original and its answers stay reachable', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'redit' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Edit' });
    await openChat(page, user, conversation.id);
    const marker = uniqueToken();
    await typeAndSend(page, `First question ${marker}`);
    await answerDone(page);
    await typeAndSend(page, `Second question ${marker}`);
    await expect(messages(page)).toHaveCount(4);
    await answerDone(page);

    await messages(page, 'user').first().getByTestId('message-edit').click();
    const editor = page.getByTestId('message-edit-input');
    await expect(editor).toHaveValue(`First question ${marker}`);
    await editor.fill(`Edited question ${marker}`);
    await page.getByTestId('message-edit-send').click();

    await expect(messages(page)).toHaveCount(2);
    await expect(messages(page, 'user')).toContainText(`Edited question ${marker}`);
    await answerDone(page);
    await expect(messages(page, 'assistant')).toContainText(`Edited question ${marker}`);
    await expect(messages(page, 'user').getByTestId('message-version-label')).toHaveText('2/2');
    const editedId = await messages(page, 'user').getAttribute('data-id');
    await expect.poll(() => api.remaining()).toBe(1000 - 3 * PRICE);
    await expect(page.getByTestId('chat-input')).toHaveValue('');

    // Nothing was deleted: the first version comes back with the turn that followed it.
    await messages(page, 'user').first().getByTestId('message-version-previous').click();
    await expect(messages(page)).toHaveCount(4);
    await expect(messages(page, 'user').first()).toContainText(`First question ${marker}`);
    await expect(messages(page, 'user').last()).toContainText(`Second question ${marker}`);
    await expect(messages(page, 'user').first().getByTestId('message-version-label')).toHaveText('1/2');
    const stored = await api.messages(conversation.id);
    expect(stored.map((m) => m.content.split('\n')[0])).toEqual([
      `First question ${marker}`,
      expect.stringContaining(`First question ${marker}`),
      `Second question ${marker}`,
      expect.stringContaining(`Second question ${marker}`),
    ]);

    // A search hit in the version not shown opens that version's branch.
    await page.goto(`/chat?c=${conversation.id}&message=${editedId}`);
    await expect(messages(page)).toHaveCount(2);
    await expect(messages(page, 'user')).toContainText(`Edited question ${marker}`);
  });

  test('retry of a failed answer answers in place, the question staying where it was', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'rretry' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Retry' });
    await openChat(page, user, conversation.id);
    const marker = uniqueToken();
    await typeAndSend(page, `Fails first ${marker} [fake:error-once]`);
    await expect(page.getByTestId('message-failed')).toBeVisible({ timeout: 20_000 });
    await typeAndSend(page, `Then ${marker}`);
    await answerDone(page);

    await page.getByTestId('message-retry').click();
    await expect(page.getByTestId('message-failed')).toHaveCount(0, { timeout: 20_000 });
    await expect(messages(page)).toHaveCount(4);
    await expect(messages(page).nth(1)).toContainText(`Echo: Fails first ${marker}`);
    await expect(messages(page).nth(2)).toContainText(`Then ${marker}`);
    const stored = await api.messages(conversation.id);
    expect(stored.map((m) => [m.role, m.status, m.content.split(' ')[0]])).toEqual([
      ['user', 'complete', 'Fails'],
      ['assistant', 'complete', 'Echo:'],
      ['user', 'complete', 'Then'],
      ['assistant', 'complete', 'Echo:'],
    ]);
    await expect.poll(() => api.remaining()).toBe(1000 - 2 * PRICE);
  });

  test('an answer cut off by the length limit offers "continue", which asks the model to go on', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'rcont' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Continue' });
    await openChat(page, user, conversation.id);
    await typeAndSend(page, `Long answer ${uniqueToken()} [fake:length]`);
    await answerDone(page);
    const proceed = page.getByTestId('message-continue');
    // antd spaces out a two-character Chinese button label.
    await expect(proceed).toHaveText(/^继\s?续$/);
    await proceed.click();
    await expect(messages(page)).toHaveCount(4);
    await expect(messages(page, 'user').last()).toContainText('请继续。');
    await answerDone(page);
    await expect(page.getByTestId('message-continue')).toHaveCount(0);
    await expect.poll(() => api.remaining()).toBe(1000 - 2 * PRICE);
  });

  test('an answer broken off after some text stays, marked interrupted, with "continue" and "regenerate"', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'rdrop' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Dropped' });
    await openChat(page, user, conversation.id);
    const question = `Broken ${uniqueToken()} [fake:drop]`;
    await typeAndSend(page, question);
    await expect(page.getByTestId('message-interrupted')).toBeVisible({ timeout: 20_000 });
    const partial = messages(page, 'assistant').last();
    await expect(partial).toContainText(`Echo: ${question.slice(0, 10)}`);
    // The question is not put back into the box, and the partial answer stays charged.
    await expect(page.getByTestId('chat-input')).toHaveValue('');
    await expect(page.getByTestId('message-regenerate')).toBeVisible();
    const proceed = page.getByTestId('message-continue');
    await expect(proceed).toBeVisible();
    await expect.poll(() => api.remaining()).toBe(1000 - PRICE);

    await proceed.click();
    await expect(messages(page)).toHaveCount(4);
    await expect(messages(page, 'user').last()).toContainText('请继续。');
    await answerDone(page);
    await expect(page.getByTestId('message-continue')).toHaveCount(0);
    await expect.poll(() => api.remaining()).toBe(1000 - 2 * PRICE);
  });
});
