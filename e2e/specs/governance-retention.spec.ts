import { expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language, selectOption, signInAsSuperAdmin } from '../support/admin';
import { readSettings, rememberSettings, seriousViolations } from '../support/site-settings';
import { toast } from '../support/ui';

// The retention setting is global: this spec runs in the 'settings' project (after every
// other spec, one at a time) and puts it back.
test.describe.configure({ mode: 'serial' });
// Two axe checks and two screens per test: more than the default minute on a loaded 2-core machine.
test.setTimeout(120_000);

const TEXT: Record<
  Language,
  { saved: string; dryDone: RegExp; dryTag: string; kept: string; placed: string; released: RegExp; release: string }
> = {
  'zh-CN': {
    saved: '设置已保存',
    dryDone: /^试运行：将删除 \d+ 个对话和 \d+ 个文件$/,
    dryTag: '试运行',
    kept: '对话在最后使用后保留 90 天',
    placed: '已设置法律保全',
    released: /^已解除对 .+ 的保全$/,
    release: '解除',
  },
  'en-US': {
    saved: 'Settings saved',
    dryDone: /^Dry run: \d+ conversations and \d+ files would be deleted$/,
    dryTag: 'Dry run',
    kept: 'Conversations are kept for 90 days after last use',
    placed: 'Legal hold placed',
    released: /^Hold on .+ released$/,
    release: 'Release',
  },
};

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`retention and legal hold (${language})`, () => {
    test.use({ locale: language });

    test('a super administrator sets retention and sees a dry run’s counts; users see the policy', async ({
      page,
      request,
    }) => {
      const admin = await AdminApi.superAdmin(request);
      const restore = await rememberSettings(admin, { retention: ['days'] });
      try {
        await signInAsSuperAdmin(page, null);
        const loaded = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings'));
        await page.goto('/admin/settings?tab=retention');
        expect((await loaded).status()).toBe(200);
        await page.getByTestId('settings-retention-days').fill('90');
        await page.getByTestId('settings-save-retention').click();
        await expect(toast(page, T.saved)).toBeVisible();
        expect((await readSettings(admin)).retention).toEqual({ days: 90 });

        const dry = page.waitForResponse((r) => r.url().endsWith('/api/admin/retention/run'));
        await page.getByTestId('retention-dry-run').click();
        const answer = (await (await dry).json()) as { data: { conversations: number; files: number } };
        await expect(page.getByTestId('retention-result')).toHaveText(T.dryDone);
        await expect(page.getByTestId('retention-result')).toContainText(String(answer.data.conversations));
        const newest = page.getByTestId('retention-runs-table').locator('tbody tr.ant-table-row').first();
        await expect(newest).toContainText(T.dryTag);
        expect(await seriousViolations(page)).toEqual([]);
        await page.setViewportSize({ width: 375, height: 800 });
        await page.screenshot({
          path: `test-results/governance-retention-settings-${language}-375.png`,
          fullPage: true,
        });

        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto('/chat');
        await expect(page.getByTestId('chat-retention-note')).toHaveText(T.kept);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await restore();
      }
    });

    test('a super administrator places a hold on a user from the console, sees it listed and releases it', async ({
      page,
      request,
    }) => {
      const admin = await AdminApi.superAdmin(request);
      const held = await admin.createUser({ prefix: 'hold' });
      await signInAsSuperAdmin(page, null);
      await page.goto('/admin/legal-holds');
      await expect(page.getByTestId('legal-holds-table')).toBeVisible({ timeout: 30_000 });
      await page.getByTestId('legal-hold-place-button').click();
      const subject = page.getByTestId('legal-hold-subject');
      await subject.click();
      await subject.locator('input').fill(held.username);
      await selectOption(page, held.username).click();
      await page.getByTestId('legal-hold-reason').fill('Pending litigation');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('legal-hold-submit').click();
      await expect(toast(page, T.placed)).toBeVisible();
      const row = page.getByTestId(`legal-hold-subject-user-${held.id}`);
      await expect(row).toContainText(held.username);
      await expect(page.getByTestId('legal-holds-table')).toContainText('Pending litigation');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/governance-holds-${language}.png`, fullPage: true });

      await page.getByTestId(`legal-hold-release-user-${held.id}`).click();
      await page.locator('.ant-modal-confirm-btns .ant-btn-dangerous').click();
      await expect(toast(page, T.released)).toBeVisible();
      await expect(row).toHaveCount(0);
    });
  });
}
