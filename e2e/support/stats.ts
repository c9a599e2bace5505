import { type APIRequestContext, type Locator, type Page, type Response, expect } from '@playwright/test';
import { AdminApi, type GroupRow, type ManagedUser } from './admin.js';
import { ChatApi } from './chat.js';
import { DEFAULT_MODEL, PLAIN_MODEL } from './models.js';
import { uniqueToken } from './users.js';

/**
 * Statistics helpers: real usage in fresh groups (so that assertions never depend on
 * what other specs spend at the same time) and readers of the statistics page.
 */

/** Two groups, one user in each, and the chats they had: the numbers the page must show. */
export interface UsageFixture {
  groupA: GroupRow;
  groupB: GroupRow;
  userA: ManagedUser;
  userB: ManagedUser;
  /** Per group: messages (2 per turn), credits (the models' prices), active users, conversations. */
  expected: Record<'a' | 'b', { messages: number; credits: number; activeUsers: number; conversations: number }>;
}

/**
 * User A chats twice in one conversation on the default model; user B once on the
 * non-stream model. Sent through the chat API against the fake upstream, so each turn
 * is charged and counted exactly as from the chat screen.
 */
export async function createUsage(request: APIRequestContext, prefix: string): Promise<UsageFixture> {
  const superAdmin = await AdminApi.superAdmin(request);
  const groupA = await superAdmin.createGroup(`${prefix}a`);
  const groupB = await superAdmin.createGroup(`${prefix}b`);
  const userA = await superAdmin.createUser({ prefix: `${prefix}a`, groupId: groupA.id, credits: 1000 });
  const userB = await superAdmin.createUser({ prefix: `${prefix}b`, groupId: groupB.id, credits: 1000 });

  const chatA = await ChatApi.login(request, userA);
  const conversationA = await chatA.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Stats A' });
  await chatA.send(conversationA.id, `First question ${uniqueToken()}`);
  await chatA.send(conversationA.id, `Second question ${uniqueToken()}`);

  const chatB = await ChatApi.login(request, userB);
  const conversationB = await chatB.createConversation({ model_name: PLAIN_MODEL.name, title: 'Stats B' });
  await chatB.send(conversationB.id, `Only question ${uniqueToken()}`);

  return {
    groupA,
    groupB,
    userA,
    userB,
    expected: {
      a: { messages: 4, credits: 2 * DEFAULT_MODEL.credits_per_chat, activeUsers: 1, conversations: 1 },
      b: { messages: 2, credits: PLAIN_MODEL.credits_per_chat, activeUsers: 1, conversations: 1 },
    },
  };
}

/**
 * Shows the admin submenu of the icon sidebar. It opens on hover, which a page still
 * settling can swallow, so the hover is repeated until the entry is there.
 */
export async function openAdminSubmenu(page: Page, entryTestId: string): Promise<Locator> {
  const entry = page.getByTestId(entryTestId);
  await expect(async () => {
    await page.getByTestId('app-sider').getByTestId('menu-admin').hover();
    await expect(entry).toBeVisible({ timeout: 2_000 });
  }).toPass();
  return entry;
}

export type TotalKey = 'messages' | 'credits' | 'tokens' | 'active_users' | 'conversations';

/** The number shown on one of the totals cards. */
export function total(page: Page, key: TotalKey): Locator {
  return page.getByTestId(`stats-total-${key}`).locator('.ant-statistic-content-value');
}

/** The drawing of a chart: echarts renders SVG into the chart's container once its library has loaded. */
export function chartSvg(page: Page, testId: string): Locator {
  return page.getByTestId(testId).locator('svg');
}

/** Waits for the overview call of a view (`group_id` absent = every group). */
export function overviewResponse(page: Page, groupId?: number): Promise<Response> {
  return page.waitForResponse((r) => {
    if (!r.url().includes('/api/admin/stats/overview') || r.request().method() !== 'GET') return false;
    const id = new URL(r.url()).searchParams.get('group_id');
    return groupId === undefined ? id === null : id === String(groupId);
  });
}

/**
 * Opens the statistics page and waits for its numbers to arrive. The wait is on the
 * answer itself, not on a fixed timeout: the page's code may take a while to load on a
 * busy machine, and what these specs check comes after it.
 */
export async function openStats(page: Page, search = '', groupId?: number): Promise<Response> {
  const loaded = overviewResponse(page, groupId);
  await page.goto(`/admin/stats${search}`);
  return loaded;
}

/** The totals of the statistics page match a group's expected numbers. */
export async function expectTotals(page: Page, expected: UsageFixture['expected']['a']): Promise<void> {
  await expect(total(page, 'messages')).toHaveText(String(expected.messages));
  await expect(total(page, 'credits')).toHaveText(String(expected.credits));
  await expect(total(page, 'active_users')).toHaveText(String(expected.activeUsers));
  await expect(total(page, 'conversations')).toHaveText(String(expected.conversations));
}
