import { type Page, expect, test } from '@playwright/test';
import {
  ChatApi,
  conversationAction,
  conversationItem,
  conversationMore,
  openChat,
  TALL_DESKTOP,
} from '../support/chat';
import { daysAgo, setLastActivity } from '../support/conversation-dates';
import { DEFAULT_MODEL } from '../support/models';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/** The ids of the conversations listed under one date heading, in order. */
const groupIds = (page: Page, group: string) =>
  page.getByTestId(`conversation-group-${group}`).getByTestId('conversation-item');

/** The menu of the row whose "more" button was pressed (the other rows' menus stay hidden). */
const openMenu = (page: Page) => page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]');

test.describe('chat: sidebar groups and row menu', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('conversations sit under pinned, today, yesterday, previous 7 days and older; the title filter works inside them', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cgrp' });
    const api = await ChatApi.login(request, user);
    const make = (title: string, pinned = false) =>
      api.createConversation({ model_name: DEFAULT_MODEL.name, title, ...(pinned ? { is_pinned: true } : {}) });
    const today = await make('Fresh today');
    const yesterday = await make('From yesterday');
    const lastWeek = await make('Three days back');
    const old = await make('Long ago');
    const oldPinned = await make('Old but pinned', true);
    setLastActivity(yesterday.id, daysAgo(1));
    setLastActivity(lastWeek.id, daysAgo(3));
    setLastActivity(old.id, daysAgo(40));
    setLastActivity(oldPinned.id, daysAgo(60));

    await openChat(page, user, today.id);
    // Real headings in this order, each naming the list under it.
    const headings = page.locator('[data-testid^="conversation-group-"]').getByRole('heading', { level: 3 });
    await expect(headings).toHaveText(['置顶', '今天', '昨天', '过去 7 天', '更早']);
    for (const [group, id, name] of [
      ['pinned', oldPinned.id, '置顶'],
      ['today', today.id, '今天'],
      ['yesterday', yesterday.id, '昨天'],
      ['previous7', lastWeek.id, '过去 7 天'],
      ['older', old.id, '更早'],
    ] as const) {
      await expect(groupIds(page, group)).toHaveCount(1);
      await expect(groupIds(page, group)).toHaveAttribute('data-id', id);
      await expect(page.getByRole('list', { name, exact: true }).getByRole('listitem')).toHaveCount(1);
    }
    await expect(conversationItem(page, today.id)).toHaveAttribute('aria-current', 'page');
    await expect(conversationItem(page, old.id)).not.toHaveAttribute('aria-current', /.*/);

    // Filtering keeps the headings of what is left and hides the empty groups.
    await page.getByTestId('chat-search').fill('long ago');
    await expect(headings).toHaveText(['更早']);
    await expect(page.getByTestId('conversation-item')).toHaveCount(1);
    await page.getByTestId('chat-search').fill('');
    await expect(headings).toHaveCount(5);
  });

  test('rename with the keyboard through the row menu (refused titles say why), pin across a reload, unpin and delete', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cmenu' });
    const api = await ChatApi.login(request, user);
    const other = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Stays put' });
    const target = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Before rename' });
    setLastActivity(other.id, daysAgo(1));
    await openChat(page, user, target.id);
    await expect(groupIds(page, 'today')).toHaveAttribute('data-id', target.id);

    // One button per row, named after the conversation, beside (not inside) the link.
    const more = conversationMore(page, target.id);
    await expect(page.getByRole('button', { name: '“Before rename”的操作' })).toHaveCount(1);
    await expect(conversationItem(page, target.id).getByRole('button')).toHaveCount(0);
    // Another row's button shows only once the keyboard (or the mouse) reaches that row.
    await page.mouse.move(0, 0);
    await expect(conversationMore(page, other.id)).toHaveCSS('opacity', '0');
    await conversationItem(page, other.id).focus();
    await expect(conversationMore(page, other.id)).toHaveCSS('opacity', '1');

    // Keyboard: the link, Tab to the button, Enter opens the menu on its first entry.
    await conversationItem(page, target.id).focus();
    await page.keyboard.press('Tab');
    await expect(more).toBeFocused();
    await expect(more).toHaveCSS('opacity', '1');
    await page.keyboard.press('Enter');
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await expect(openMenu(page).getByRole('menuitem', { name: '重命名' })).toBeFocused();
    await page.keyboard.press('Enter');
    const box = page.getByTestId('conversation-rename-input');
    await expect(box).toBeFocused();
    await expect(box).toHaveValue('Before rename');

    // Empty and too long are refused with the server's messages; nothing is saved.
    await box.fill('   ');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('conversation-rename-error')).toHaveText('请输入标题');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await box.fill('x'.repeat(201));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('conversation-rename-error')).toHaveText('标题不能超过200个字符');
    // Escape cancels and gives the focus back to the row.
    await page.keyboard.press('Escape');
    await expect(box).toHaveCount(0);
    await expect(conversationItem(page, target.id)).toBeFocused();
    await expect(conversationItem(page, target.id).getByTestId('conversation-title')).toHaveText('Before rename');
    expect((await api.conversation(target.id)).title).toBe('Before rename');

    const renamed = `After ${uniqueToken()}`;
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(openMenu(page).getByRole('menuitem', { name: '重命名' })).toBeFocused();
    await page.keyboard.press('Enter');
    await box.fill(renamed);
    await page.keyboard.press('Enter');
    await expect(toast(page, '对话已重命名')).toBeVisible();
    await expect(conversationItem(page, target.id).getByTestId('conversation-title')).toHaveText(renamed);
    await expect(page.getByTestId('chat-header-title')).toHaveText(renamed);
    expect((await api.conversation(target.id)).title).toBe(renamed);

    // Pin with the arrow keys: the row moves under "pinned" and stays there after a reload.
    await more.focus();
    await page.keyboard.press('Enter');
    await expect(openMenu(page).getByRole('menuitem', { name: '重命名' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(openMenu(page).getByRole('menuitem', { name: '置顶' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toast(page, '对话已置顶')).toBeVisible();
    await expect(more).toBeFocused();
    await expect(groupIds(page, 'pinned')).toHaveAttribute('data-id', target.id);
    await expect(conversationItem(page, target.id).getByTestId('conversation-pinned')).toBeVisible();
    await expect(page.getByTestId('conversation-group-today')).toHaveCount(0);
    expect(await api.conversation(target.id)).toMatchObject({ is_pinned: true });
    await page.reload();
    await expect(groupIds(page, 'pinned')).toHaveAttribute('data-id', target.id);
    await expect(groupIds(page, 'yesterday')).toHaveAttribute('data-id', other.id);

    // Unpin with the mouse: back under "today".
    await conversationAction(page, target.id, 'pin');
    await expect(toast(page, '已取消置顶')).toBeVisible();
    await expect(groupIds(page, 'today')).toHaveAttribute('data-id', target.id);
    await expect(page.getByTestId('conversation-group-pinned')).toHaveCount(0);

    // Delete asks first, as before.
    await conversationAction(page, target.id, 'delete');
    await page.getByTestId('conversation-delete-confirm').click();
    await expect(toast(page, '对话已删除')).toBeVisible();
    await expect(conversationItem(page, target.id)).toHaveCount(0);
    expect((await api.raw('GET', `/chat/conversations/${target.id}`)).status()).toBe(404);
    await expect(conversationItem(page, other.id)).toBeVisible();
  });
});
