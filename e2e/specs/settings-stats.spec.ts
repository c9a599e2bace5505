import { type Page, expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language, selectOption } from '../support/admin';
import { ADMIN } from '../support/global-setup';
import { readSettings, rememberSettings } from '../support/site-settings';
import { fieldError, signInDirect, toast } from '../support/ui';

// The statistics settings are global: this spec runs in the 'settings' project (after
// every other spec, one at a time) and puts every field back.
test.describe.configure({ mode: 'serial' });

const FIELDS = { stats: ['time_zone', 'low_credits_threshold', 'pool_alert_percent'] } as const;

const TEXT: Record<
  Language,
  { saved: string; serverDefault: string; lowCredits: string; timeZone: string; period: RegExp }
> = {
  'zh-CN': {
    saved: '设置已保存',
    serverDefault: '服务器默认时区',
    lowCredits: '积分不足提醒阈值须为 0 到 1,000,000,000 的整数',
    timeZone: '未知时区：请使用 Asia/Shanghai 或 UTC 这样的名称',
    period: /按 Asia\/Tokyo 时区的零点划分日期/,
  },
  'en-US': {
    saved: 'Settings saved',
    serverDefault: 'Server default',
    lowCredits: 'Low-credits warning must be a whole number from 0 to 1,000,000,000',
    timeZone: 'Unknown time zone: use a name such as Asia/Shanghai or UTC',
    period: /days start at midnight in Asia\/Tokyo/,
  },
};

/** The statistics tab, once the settings have arrived (the page's code can take a while to load on a busy machine). */
async function openStatsTab(page: Page): Promise<void> {
  const loaded = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings') && r.request().method() === 'GET');
  await page.goto('/admin/settings?tab=stats');
  expect((await loaded).status()).toBe(200);
}

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`statistics settings (${language})`, () => {
    test.use({ locale: language });

    test('a time zone and thresholds are saved, and the statistics page counts days in that zone', async ({
      page,
      request,
    }) => {
      const admin = await AdminApi.superAdmin(request);
      const restore = await rememberSettings(admin, FIELDS);
      try {
        // Start from the server's own zone, whatever an earlier run left.
        await admin.raw('PUT', '/admin/settings', { stats: { time_zone: '' } });
        await signInDirect(page, ADMIN.email, ADMIN.password, null);
        await openStatsTab(page);
        const zone = page.getByTestId('settings-time-zone');
        await expect(zone).toContainText(T.serverDefault);

        await zone.click();
        await page.keyboard.type('Asia/Tok');
        await selectOption(page, 'Asia/Tokyo (UTC+09:00)').click();
        await page.getByTestId('settings-low-credits-threshold').fill('50');
        await page.getByTestId('settings-pool-alert-percent').fill('20');
        await page.getByTestId('settings-save-stats').click();
        await expect(toast(page, T.saved)).toBeVisible();
        expect((await readSettings(admin)).stats).toEqual({
          time_zone: 'Asia/Tokyo',
          low_credits_threshold: 50,
          pool_alert_percent: 20,
        });

        // The tab links to the statistics page, whose days now start in Tokyo.
        await page.getByTestId('settings-stats-link').click();
        await expect(page).toHaveURL(/\/admin\/stats$/);
        await expect(page.getByTestId('stats-period')).toHaveText(T.period);
      } finally {
        await restore();
      }
    });

    test('a cleared threshold is named on its field; an unknown zone is refused by the server in the same words', async ({
      page,
      request,
    }) => {
      const admin = await AdminApi.superAdmin(request);
      const restore = await rememberSettings(admin, FIELDS);
      try {
        await signInDirect(page, ADMIN.email, ADMIN.password, null);
        await openStatsTab(page);
        let saves = 0;
        page.on('request', (r) => {
          if (r.method() === 'PUT' && r.url().endsWith('/api/admin/settings')) saves += 1;
        });
        await page.getByTestId('settings-low-credits-threshold').clear();
        await page.getByTestId('settings-save-stats').click();
        await expect(fieldError(page, T.lowCredits)).toBeVisible();
        expect(saves).toBe(0);
        await page.getByTestId('settings-reset-stats').click();
        await expect(fieldError(page, T.lowCredits)).toHaveCount(0);

        // The list offers only real zones; a caller naming another one gets the translated refusal.
        const login = await request.post('/api/auth/login', {
          data: { account: ADMIN.email, password: ADMIN.password },
        });
        const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
        const refused = await request.put('/api/admin/settings', {
          headers: { Authorization: `Bearer ${token}`, 'Accept-Language': language },
          data: { stats: { time_zone: 'Mars/Olympus_Mons' } },
        });
        expect(refused.status()).toBe(400);
        expect(JSON.stringify(await refused.json())).toContain(T.timeZone);
      } finally {
        await restore();
      }
    });
  });
}

test('a group administrator reads the statistics settings without being able to change them', async ({
  page,
  request,
}) => {
  const superAdmin = await AdminApi.superAdmin(request);
  const group = await superAdmin.createGroup('ststro');
  const groupAdmin = await superAdmin.createUser({ prefix: 'ststro', role: 'admin', groupId: group.id });
  await signInDirect(page, groupAdmin.email, groupAdmin.password, null);
  await openStatsTab(page);
  await expect(page.getByTestId('settings-read-only')).toBeVisible();
  await expect(page.getByTestId('settings-low-credits-threshold')).toBeDisabled();
  await expect(page.getByTestId('settings-pool-alert-percent')).toBeDisabled();
  await expect(page.getByTestId('settings-time-zone')).toHaveClass(/ant-select-disabled/);
  await expect(page.getByTestId('settings-save-stats')).toHaveCount(0);
  // Their own group's statistics are theirs to read.
  await expect(page.getByTestId('settings-stats-link')).toBeVisible();
});
