import { type Page, expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language } from '../support/admin';
import { ADMIN } from '../support/global-setup';
import { readSettings, rememberSettings } from '../support/site-settings';
import { fieldError, signInDirect, toast } from '../support/ui';

// The storage settings are global: this spec runs in the 'settings' project (after every
// other spec, one at a time) and puts every field back.
test.describe.configure({ mode: 'serial' });

const FIELDS = { storage: ['budget_mb', 'alert_percent', 'address_mb_per_hour'] } as const;

const TEXT: Record<Language, { saved: string; budget: string; usedOf: RegExp; breakdown: RegExp; noBudget: RegExp }> = {
  'zh-CN': {
    saved: '设置已保存',
    budget: '存储总量上限须为 0 到 100,000,000 之间的整数（MB）',
    usedOf: /^[\d.,]+ (B|KB|MB) \/ 50 GB（\d+%）$/,
    breakdown: /^聊天图片 [\d.,]+ (B|KB|MB)，头像 [\d.,]+ (B|KB|MB)$/,
    noBudget: /，未设上限$/,
  },
  'en-US': {
    saved: 'Settings saved',
    budget: 'The storage budget must be a whole number of MB from 0 to 100,000,000',
    usedOf: /^[\d.,]+ (B|KB|MB) of 50 GB \(\d+%\)$/,
    breakdown: /^Chat images [\d.,]+ (B|KB|MB), avatars [\d.,]+ (B|KB|MB)$/,
    noBudget: /; no budget set$/,
  },
};

async function openStorageTab(page: Page): Promise<void> {
  const loaded = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings') && r.request().method() === 'GET');
  await page.goto('/admin/settings?tab=storage');
  expect((await loaded).status()).toBe(200);
}

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`storage settings (${language})`, () => {
    test.use({ locale: language });

    test('the tab shows what is stored against the budget, saves its fields and names a bad one', async ({
      page,
      request,
    }) => {
      const admin = await AdminApi.superAdmin(request);
      const restore = await rememberSettings(admin, FIELDS);
      try {
        await signInDirect(page, ADMIN.email, ADMIN.password, null);
        await openStorageTab(page);
        await expect(page.getByTestId('storage-usage-breakdown')).toHaveText(T.breakdown);

        await page.getByTestId('settings-storage-budget').fill('51200');
        await page.getByTestId('settings-storage-alert-percent').fill('80');
        await page.getByTestId('settings-storage-address-limit').fill('300');
        await page.getByTestId('settings-save-storage').click();
        await expect(toast(page, T.saved)).toBeVisible();
        expect((await readSettings(admin)).storage).toEqual({
          budget_mb: 51_200,
          alert_percent: 80,
          address_mb_per_hour: 300,
        });
        // The figures follow the saved budget.
        await expect(page.getByTestId('storage-usage-text')).toHaveText(T.usedOf);
        await expect(page.getByTestId('storage-usage-bar')).toBeVisible();

        await page.getByTestId('settings-storage-budget').fill('0');
        await page.getByTestId('settings-save-storage').click();
        await expect(page.getByTestId('storage-usage-text')).toHaveText(T.noBudget);
        await expect(page.getByTestId('storage-usage-bar')).toHaveCount(0);

        await page.getByTestId('settings-storage-budget').clear();
        await page.getByTestId('settings-save-storage').click();
        await expect(fieldError(page, T.budget)).toBeVisible();
      } finally {
        await restore();
      }
    });
  });
}
