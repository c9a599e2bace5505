import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language, selectOption, tableRows } from '../support/admin';
import { ADMIN } from '../support/global-setup';
import { DEFAULT_MODEL } from '../support/models';
import { seriousViolations } from '../support/site-settings';
import {
  chartSvg,
  createUsage,
  expectTotals,
  openAdminSubmenu,
  openStats,
  overviewResponse,
  total,
} from '../support/stats';
import { signInDirect, toast } from '../support/ui';

/*
 * The statistics page reads real usage: every test chats in groups of its own and looks
 * at those groups, so what other specs spend meanwhile never changes its numbers.
 */

const TEXT: Record<Language, { title: string; exported: string; ownGroup: (name: string) => string; empty: string }> = {
  'zh-CN': {
    title: '使用统计',
    exported: 'CSV 文件已下载',
    ownGroup: (name) => `所在用户组：${name}`,
    empty: '此时间范围内没有使用记录',
  },
  'en-US': {
    title: 'Usage statistics',
    exported: 'The CSV file has been downloaded',
    ownGroup: (name) => `Your group: ${name}`,
    empty: 'No usage in this range',
  },
};

const CSV_HEADER =
  'date,group_id,group_name,user_id,username,email,model,messages,tokens,credits,conversations,ui_credits,api_credits,api_requests,api_tokens';
const PHONE = { width: 375, height: 740 };

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`usage statistics (${language})`, () => {
    test.use({ locale: language });

    test('a super administrator sees every group, then each group’s own totals, charts and top users', async ({
      page,
      request,
    }) => {
      // Three chats and three views of the page.
      test.slow();
      const usage = await createUsage(request, 'st');
      await signInDirect(page, ADMIN.email, ADMIN.password);

      // From the menu, every group at first: the group chart names both groups.
      const menuEntry = await openAdminSubmenu(page, 'menu-admin-stats');
      const everyGroup = overviewResponse(page);
      await menuEntry.click();
      await expect(page).toHaveURL(/\/admin\/stats$/);
      expect((await everyGroup).status()).toBe(200);
      await expect(page.getByRole('heading', { name: T.title })).toBeVisible();
      for (const chart of [
        'stats-chart-activity',
        'stats-chart-consumption',
        'stats-chart-models',
        'stats-chart-groups',
      ])
        await expect(chartSvg(page, chart), chart).toBeVisible();
      await expect(page.getByTestId('stats-chart-groups')).toContainText(usage.groupA.name);
      await expect(page.getByTestId('stats-chart-groups')).toContainText(usage.groupB.name);
      const messagesOverall = Number((await total(page, 'messages').innerText()).replace(/\D/g, ''));
      expect(messagesOverall).toBeGreaterThanOrEqual(usage.expected.a.messages + usage.expected.b.messages);

      // One group: its own numbers (2 messages per turn, the models' prices), and the group chart gives way.
      const groupA = overviewResponse(page, usage.groupA.id);
      await page.getByTestId('stats-group').click();
      await page.keyboard.type(usage.groupA.name);
      await selectOption(page, usage.groupA.name).click();
      expect((await groupA).status()).toBe(200);
      await expect(page).toHaveURL(new RegExp(`[?&]group=${usage.groupA.id}(&|$)`));
      await expectTotals(page, usage.expected.a);
      await expect(page.getByTestId('stats-chart-groups')).toHaveCount(0);
      await expect(chartSvg(page, 'stats-chart-models')).toBeVisible();
      await expect(page.getByTestId('stats-chart-models')).toContainText(DEFAULT_MODEL.display_name);
      const topUsers = tableRows(page, 'stats-top-users');
      await expect(topUsers).toHaveCount(1);
      await expect(topUsers.first()).toContainText(usage.userA.username);
      await expect(topUsers.first()).toContainText(String(usage.expected.a.credits));

      // The other group narrows to the other user.
      const groupB = overviewResponse(page, usage.groupB.id);
      await page.getByTestId('stats-group').click();
      await page.keyboard.type(usage.groupB.name);
      await selectOption(page, usage.groupB.name).click();
      await groupB;
      await expectTotals(page, usage.expected.b);
      await expect(tableRows(page, 'stats-top-users')).toHaveCount(1);
      await expect(tableRows(page, 'stats-top-users').first()).toContainText(usage.userB.username);
    });

    test('a group administrator sees only their own group, with no group choice', async ({ page, request }) => {
      // Three chats before the page is opened.
      test.slow();
      const usage = await createUsage(request, 'sg');
      const superAdmin = await AdminApi.superAdmin(request);
      const groupAdmin = await superAdmin.createUser({ prefix: 'sgadm', role: 'admin', groupId: usage.groupA.id });

      await signInDirect(page, groupAdmin.email, groupAdmin.password);
      await openAdminSubmenu(page, 'menu-admin-stats');
      // Even a group named in the address is not theirs to choose: the page shows their own.
      // (The server answers for their group, so the call carries no group at all.)
      await openStats(page, `?group=${usage.groupB.id}`);
      await expect(page.getByTestId('stats-own-group')).toHaveText(T.ownGroup(usage.groupA.name));
      await expect(page.getByTestId('stats-group')).toHaveCount(0);
      await expectTotals(page, usage.expected.a);
      await expect(page.getByTestId('stats-chart-groups')).toHaveCount(0);
      await expect(chartSvg(page, 'stats-chart-activity')).toBeVisible();
      await expect(tableRows(page, 'stats-top-users')).toHaveCount(1);
      await expect(page.getByTestId('stats-top-users')).toContainText(usage.userA.username);
      await expect(page.getByTestId('stats-top-users')).not.toContainText(usage.userB.username);

      // The server keeps them in their group whatever they ask for.
      const api = await AdminApi.as(request, groupAdmin);
      expect((await api.raw('GET', `/admin/stats/overview?group_id=${usage.groupB.id}`)).status()).toBe(404);
      expect((await api.raw('GET', `/admin/stats/export.csv?group_id=${usage.groupB.id}`)).status()).toBe(404);
    });
  });
}

test.describe('usage statistics', () => {
  test('the range and the group stay in the address, across a reload', async ({ page, request }) => {
    // Three loads of the page's numbers, one of them after a full reload.
    test.slow();
    const superAdmin = await AdminApi.superAdmin(request);
    const idle = await superAdmin.createGroup('strange');
    await signInDirect(page, ADMIN.email, ADMIN.password, null);
    await openStats(page, `?group=${idle.id}`, idle.id);
    await expect(page.getByTestId('stats-empty')).toBeVisible();

    const week = page.waitForResponse(
      (r) => r.url().includes('/api/admin/stats/overview') && new URL(r.url()).searchParams.get('days') === '7',
    );
    await page.getByTestId('stats-range-7').click();
    expect(new URL((await week).url()).searchParams.get('group_id')).toBe(String(idle.id));
    await expect(page).toHaveURL(new RegExp(`days=7`));
    const reloaded = overviewResponse(page, idle.id);
    await page.reload();
    expect(new URL((await reloaded).url()).searchParams.get('days')).toBe('7');
    await expect(page.getByTestId('stats-range').locator('.ant-segmented-item-selected')).toContainText('7');
    await expect(page).toHaveURL(new RegExp(`[?&]group=${idle.id}(&|$)`));
  });

  test('the charge-back CSV holds the group’s rows: day, user, model and numbers', async ({ page, request }) => {
    // Three chats, the page and a download.
    test.slow();
    const usage = await createUsage(request, 'sc');
    await signInDirect(page, ADMIN.email, ADMIN.password, null);
    // Group A's file: its user's row with the day's numbers, nobody else's.
    await openStats(page, `?group=${usage.groupA.id}`, usage.groupA.id);
    await expectTotals(page, usage.expected.a);
    const exported = page.waitForResponse((r) => r.url().includes('/api/admin/stats/export.csv'));
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const [response, download] = await Promise.all([exported, downloading]);
    expect(new URL(response.url()).searchParams.get('group_id')).toBe(String(usage.groupA.id));
    expect(new URL(response.url()).searchParams.get('days')).toBe('30');
    expect(download.suggestedFilename()).toMatch(/^usage-\d{8}-\d{4}\.csv$/);
    await expect(toast(page, TEXT['zh-CN'].exported)).toBeVisible();
    const text = (await fs.readFile(await download.path())).toString('utf8').replace(/^\uFEFF/, '');
    const lines = text.split(/\r?\n/).filter((line) => line !== '');
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines).toHaveLength(2);
    const { groupA: a, userA } = usage;
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2},${a.id},${a.name},${userA.id},${userA.username},${userA.email},${DEFAULT_MODEL.name},4,\\d+,${usage.expected.a.credits},1,${usage.expected.a.credits},0,0,0$`,
      ),
    );
    expect(text).not.toContain(usage.userB.username);
  });

  test('a plain user is refused, on the page and by the server', async ({ page, request }) => {
    // The refusal waits for the page's own code; give a busy machine room.
    test.slow();
    const superAdmin = await AdminApi.superAdmin(request);
    const user = await superAdmin.createUser({ prefix: 'stusr' });
    await signInDirect(page, user.email, user.password, null);
    await page.goto('/admin/stats');
    // The refusal comes with the page's own code, which a busy machine can take a while to load.
    await expect(page.getByTestId('no-permission')).toBeVisible({ timeout: 30_000 });
    // The menu beside it offers no administration at all.
    await expect(page.getByTestId('app-sider').getByTestId('menu-dashboard')).toBeVisible();
    await expect(page.getByTestId('menu-admin')).toHaveCount(0);
    const api = await AdminApi.as(request, user);
    expect((await api.raw('GET', '/admin/stats/overview')).status()).toBe(403);
  });

  test('a range without usage says so; a failed load offers a retry', async ({ page, request }) => {
    // Two loads of the page's numbers, one of them refused.
    test.slow();
    const superAdmin = await AdminApi.superAdmin(request);
    const idle = await superAdmin.createGroup('stidle');
    await signInDirect(page, ADMIN.email, ADMIN.password, null);

    let failures = 1;
    await page.route('**/api/admin/stats/overview**', async (route) => {
      if (failures-- > 0) return route.fulfill({ status: 503, body: 'unavailable' });
      return route.continue();
    });
    expect((await openStats(page, `?group=${idle.id}`, idle.id)).status()).toBe(503);
    await expect(page.getByTestId('stats-error')).toBeVisible();
    const retried = overviewResponse(page, idle.id);
    await page.getByTestId('stats-error-retry').click();
    expect((await retried).status()).toBe(200);
    await expect(page.getByTestId('stats-empty')).toContainText(TEXT['zh-CN'].empty);
    await expect(total(page, 'messages')).toHaveText('0');
    await expect(page.getByTestId('stats-chart-activity')).toHaveCount(0);
  });

  test('the page has no serious accessibility problems, on a desktop and on a phone', async ({ page, request }) => {
    // Two axe analyses take a few seconds each.
    test.slow();
    const usage = await createUsage(request, 'sx');
    await signInDirect(page, ADMIN.email, ADMIN.password, null);
    await openStats(page);
    for (const chart of ['stats-chart-activity', 'stats-chart-consumption', 'stats-chart-models', 'stats-chart-groups'])
      await expect(chartSvg(page, chart)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // On a phone: charts take the full width, the top users table scrolls inside itself.
    await page.setViewportSize(PHONE);
    await openStats(page, `?group=${usage.groupA.id}`, usage.groupA.id);
    await expectTotals(page, usage.expected.a);
    await expect(chartSvg(page, 'stats-chart-activity')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const chart = await page.getByTestId('stats-chart-activity').boundingBox();
    expect(chart?.width ?? 0).toBeGreaterThan(PHONE.width * 0.8);
    const scroller = page.getByTestId('stats-top-users').locator('.ant-table-content, .ant-table-body').first();
    const widths = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
