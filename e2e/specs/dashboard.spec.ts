import { type Locator, type Page, expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language } from '../support/admin';
import { ChatApi, messages, typeAndSend } from '../support/chat';
import { DEFAULT_MODEL, PLAIN_MODEL } from '../support/models';
import { seriousViolations } from '../support/site-settings';
import { signInDirect } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/** How often the dashboard polls the live numbers (STATS_POLL_SECONDS). */
const POLL_MS = 30_000;

const TEXT: Record<
  Language,
  { today: string; live: string; noUsage: string; lowTitle: string; expiringTitle: string; lowAlert: RegExp }
> = {
  'zh-CN': {
    today: '今日消耗',
    live: '我的今日',
    noUsage: '还没有使用记录',
    lowTitle: '积分余额不足',
    expiringTitle: '积分即将过期',
    lowAlert: /积分仅剩 50，已低于提醒线 100/,
  },
  'en-US': {
    today: 'Used today',
    live: 'My activity today',
    noUsage: 'No usage yet',
    lowTitle: 'Credits running low',
    expiringTitle: 'Credits expire soon',
    lowAlert: /Only 50 credits left, below the reminder level of 100/,
  },
};

/** The number an antd Statistic shows (group separators dropped). */
async function figure(statistic: Locator): Promise<number> {
  const text = await statistic.locator('.ant-statistic-content-value').innerText();
  return Number(text.replace(/[^\d.-]/g, ''));
}

/** The count the header bell announces in its label. */
async function bellCount(page: Page): Promise<number> {
  const label = (await page.getByTestId('notification-bell').getAttribute('aria-label')) ?? '';
  return Number(/\d+/.exec(label)?.[0] ?? '0');
}

/** One whole turn typed on the chat screen, answered by the fake upstream. */
async function chatInUi(page: Page, conversationId: string): Promise<void> {
  await page.goto(`/chat?c=${conversationId}`);
  await expect(page.getByTestId('chat-input')).toBeEnabled();
  await typeAndSend(page, `Dashboard question ${uniqueToken()}`);
  await expect(messages(page, 'assistant').last()).toHaveAttribute('data-status', 'complete');
}

/** How far the page is wider than the window (0 when nothing sticks out sideways). */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const cards = Array.from(document.querySelectorAll<HTMLElement>('.ant-card'));
    const widest = Math.max(0, ...cards.map((card) => card.scrollWidth - card.clientWidth));
    return Math.max(root.scrollWidth - root.clientWidth, widest);
  });
}

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`dashboard (${language})`, () => {
    test.use({ locale: language, viewport: { width: 1280, height: 1400 } });

    test('after a chat the cards show real numbers; the live card follows the next chat without a reload', async ({
      page,
      request,
    }) => {
      test.slow();
      const user = await registerViaApi(request, { prefix: 'dash' });
      const api = await ChatApi.login(request, user);
      const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Dashboard' });
      // Timers run at normal speed until the test moves the clock on to the next poll.
      await page.clock.install();

      const heartbeat = () =>
        page.waitForRequest((r) => r.url().endsWith('/api/stats/heartbeat') && r.method() === 'POST');
      const firstBeat = heartbeat();
      await signInDirect(page, user.email, user.password);
      // The signed-in frame says at once that this user is here.
      await firstBeat;
      const credits = page.getByTestId('credits-card');
      await expect(credits.getByTestId('credits-today')).toContainText(T.today);
      expect(await figure(credits.getByTestId('credits-today'))).toBe(0);
      expect(await figure(credits.getByTestId('credits-remaining'))).toBe(1000);
      await expect(page.getByTestId('usage-empty')).toContainText(T.noUsage);
      // A plain user's live card shows their own figures, not the platform's.
      await expect(page.getByTestId('realtime-card')).toContainText(T.live);
      await expect(page.getByTestId('realtime-today-messages')).toBeVisible();
      await expect(page.getByTestId('realtime-online')).toHaveCount(0);
      await expect(page.getByTestId('realtime-total-users')).toHaveCount(0);

      await chatInUi(page, conversation.id);
      // Back through the menu: the chat turn has already marked the statistics as outdated.
      await page.getByTestId('app-sider').getByTestId('menu-dashboard').click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect.poll(() => figure(credits.getByTestId('credits-today'))).toBe(DEFAULT_MODEL.credits_per_chat);
      expect(await figure(credits.getByTestId('credits-remaining'))).toBe(1000 - DEFAULT_MODEL.credits_per_chat);

      const todayMessages = page.getByTestId('realtime-today-messages');
      await expect.poll(() => figure(todayMessages)).toBeGreaterThanOrEqual(2);
      await expect(page.getByTestId(`realtime-model-${DEFAULT_MODEL.name}`)).toBeVisible();

      const usage = page.getByTestId('usage-card');
      await expect.poll(() => figure(usage.getByTestId('usage-total-messages'))).toBe(2);
      expect(await figure(usage.getByTestId('usage-total-credits'))).toBe(DEFAULT_MODEL.credits_per_chat);
      await expect(usage.getByTestId('usage-chart').locator('svg').first()).toBeVisible();
      await expect(usage.getByTestId(`usage-model-${DEFAULT_MODEL.name}`)).toContainText(DEFAULT_MODEL.display_name);
      expect(await seriousViolations(page)).toEqual([]);

      // Another chat elsewhere (another device, say); the open dashboard learns of it at the next poll.
      const before = await figure(todayMessages);
      await page.evaluate(() => {
        (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
      });
      const other = await api.createConversation({ model_name: PLAIN_MODEL.name, title: 'Elsewhere' });
      await api.send(other.id, `Elsewhere ${uniqueToken()}`);
      const polled = page.waitForResponse((r) => r.url().includes('/api/stats/realtime') && r.ok());
      const nextBeat = heartbeat();
      await page.clock.fastForward(POLL_MS);
      await polled;
      await nextBeat;
      await expect.poll(() => figure(todayMessages)).toBeGreaterThanOrEqual(before + 2);
      await expect(page.getByTestId(`realtime-model-${PLAIN_MODEL.name}`)).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    });

    test('a user with few credits is warned in the bell and on the dashboard', async ({ page, request }) => {
      const admin = await AdminApi.superAdmin(request);
      const user = await admin.createUser({ prefix: 'dlow', credits: 50 });
      await signInDirect(page, user.email, user.password);

      await expect(page.getByTestId('credits-low')).toContainText(T.lowAlert);
      await expect.poll(() => bellCount(page)).toBeGreaterThanOrEqual(1);
      await page.getByTestId('notification-bell').click();
      const notice = page.getByTestId('notice-credits-low');
      await expect(notice).toContainText(T.lowTitle);
      await expect(notice).toContainText('50');
      await expect(page.getByTestId('notice-credits-expiring')).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);

      // The shortcut to the credit history opens that tab of the profile.
      await page.keyboard.press('Escape');
      await page.getByTestId('quick-credit-history').click();
      await expect(page).toHaveURL(/\/profile\?tab=credits$/);
      await expect(page.getByTestId('credit-history-table')).toBeVisible();
    });

    test('credits that expire within a week are announced in the bell and on the dashboard', async ({
      page,
      request,
    }) => {
      const admin = await AdminApi.superAdmin(request);
      const user = await admin.createUser({ prefix: 'dexp', credits: 500 });
      const extended = await admin.raw('POST', `/admin/users/${user.id}/credits`, {
        operation: 'add',
        amount: 1,
        reason: 'Short validity',
        extend_days: 3,
      });
      expect(extended.ok(), await extended.text()).toBe(true);
      await signInDirect(page, user.email, user.password);

      await expect(page.getByTestId('credits-expiring')).toBeVisible();
      await expect(page.getByTestId('credits-low')).toHaveCount(0);
      await page.getByTestId('notification-bell').click();
      await expect(page.getByTestId('notice-credits-expiring')).toContainText(T.expiringTitle);
      await expect(page.getByTestId('notice-credits-low')).toHaveCount(0);
    });
  });

  test.describe(`dashboard on a phone (${language})`, () => {
    test.use({ locale: language, viewport: { width: 375, height: 740 } });

    test('every card fits the width; the bell is in the header', async ({ page, request }) => {
      const user = await registerViaApi(request, { prefix: 'dmob' });
      const api = await ChatApi.login(request, user);
      const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Phone' });
      await api.send(conversation.id, `Phone ${uniqueToken()}`);

      await signInDirect(page, user.email, user.password);
      await expect(page.getByTestId('usage-chart').locator('svg').first()).toBeVisible();
      await expect(page.getByTestId('realtime-today-messages')).toBeVisible();
      await expect(page.getByTestId('quick-start')).toBeVisible();
      await expect(page.getByTestId('notification-bell')).toBeVisible();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
