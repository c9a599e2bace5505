import { type Page, expect, test } from '@playwright/test';
import { ChatApi, conversationItem, messages, openChat, openConversationId } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { signInDirect } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/** The sidebar's message hits. */
const hits = (page: Page) => page.getByTestId('message-search-hit');
/** A message on screen by its id. */
const messageById = (page: Page, id: string) => page.locator(`[data-testid="message-item"][data-id="${id}"]`);

/**
 * One user, two conversations written through the API with the fake model (it echoes the
 * question as "Echo: …" at the top of a long answer). The older conversation's first answer
 * is far above its last message, so opening that conversation normally does not show it.
 */
async function twoConversations(request: Parameters<typeof registerViaApi>[0], prefix: string) {
  const user = await registerViaApi(request, { prefix });
  const api = await ChatApi.login(request, user);
  const marker = `kumquat${uniqueToken()}`.toLowerCase();
  const older = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Fruit notes' });
  const first = await api.send(older.id, `Tell me about ${marker} harvests`);
  for (let i = 0; i < 4; i++) await api.send(older.id, `Something else ${i}`);
  const newer = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Database chat' });
  const chinese = await api.send(newer.id, '我们的数据库很快吗？');
  return { user, marker, older, newer, oldAnswerId: first.assistant_message.id, chinese };
}

test.describe('chat: search in messages', () => {
  test('finds a word in an older answer, marks it, and opens the conversation at that message', async ({
    page,
    request,
  }) => {
    const s = await twoConversations(request, 'csearch');
    await openChat(page, s.user);
    // The latest conversation opens first.
    await expect(page).toHaveURL(new RegExp(`c=${s.newer.id}`));

    // Without ?message the older conversation opens at its last message, the first answer out of view.
    await conversationItem(page, s.older.id).click();
    await expect(messages(page, 'assistant').last()).toContainText('Echo: Something else 3');
    await expect(messages(page, 'assistant').last()).toBeInViewport();
    await expect(messageById(page, s.oldAnswerId)).not.toBeInViewport();
    await conversationItem(page, s.newer.id).click();
    await expect(page).toHaveURL(new RegExp(`c=${s.newer.id}`));

    // "echo" is only in answers, the marker only in that turn: one hit, the older answer.
    await page.getByTestId('chat-search').fill(`Echo ${s.marker}`);
    const section = page.getByTestId('message-search');
    await expect(section.getByRole('heading', { name: '消息' })).toBeVisible();
    await expect(hits(page)).toHaveCount(1);
    const hit = hits(page).first();
    await expect(hit).toHaveAttribute('data-message-id', s.oldAnswerId);
    await expect(hit).toContainText('Fruit notes');
    await expect(hit.locator('mark')).toHaveText(['Echo', s.marker]);
    await expect(hit).toHaveAttribute('href', `/chat?c=${s.older.id}&message=${s.oldAnswerId}`);

    await hit.click();
    await expect.poll(() => openConversationId(page)).toBe(s.older.id);
    const found = messageById(page, s.oldAnswerId);
    await expect(found).toBeInViewport();
    await expect(page.locator('.chat-row-found')).toContainText(`Echo: Tell me about ${s.marker}`);
    // Taller than the list, the answer shows from its start (where its echo of the question is).
    const list = await page.getByTestId('message-list').boundingBox();
    const box = await found.boundingBox();
    expect(box && list && Math.abs(box.y - list.y)).toBeLessThan(40);
    // The address forgets the message once shown; the highlight fades away.
    await expect(page).not.toHaveURL(/message=/);
    await expect(page.locator('.chat-row-found')).toHaveCount(0, { timeout: 5_000 });
  });

  test('finds Chinese by a run of characters and opens that conversation; nothing found says so', async ({
    page,
    request,
  }) => {
    const s = await twoConversations(request, 'csearchzh');
    await openChat(page, s.user, s.older.id);
    const search = page.getByTestId('chat-search');

    await search.fill('数据库很');
    await expect(hits(page)).toHaveCount(2);
    await expect(hits(page).first().locator('mark')).toHaveText(['数据库很']);
    await expect(hits(page).first()).toContainText('Database chat');
    await hits(page).nth(1).click();
    await expect.poll(() => openConversationId(page)).toBe(s.newer.id);
    await expect(messageById(page, s.chinese.user_message.id)).toBeInViewport();

    // Characters out of order are not a match; one character only filters titles.
    await search.fill('库据数');
    await expect(page.getByTestId('message-search-empty')).toHaveText('没有匹配的消息');
    await search.fill('库');
    await expect(page.getByTestId('message-search')).toHaveCount(0);
  });

  test('on a phone the hit closes the drawer and shows the message', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const s = await twoConversations(request, 'csearchm');
    await signInDirect(page, s.user.email, s.user.password, `/chat?c=${s.newer.id}`);
    await expect(page.getByTestId('chat-sidebar-toggle')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('chat-sidebar-toggle').click();
    const sidebar = page.getByTestId('chat-sidebar');
    await expect(sidebar).toBeVisible();
    await page.getByTestId('chat-search').fill(`echo ${s.marker}`);
    await expect(hits(page)).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await hits(page).first().click();
    await expect(sidebar).toBeHidden();
    await expect.poll(() => openConversationId(page)).toBe(s.older.id);
    await expect(messageById(page, s.oldAnswerId)).toBeInViewport();
  });
});
