import { type Language, LANGUAGES } from '@aiplatform/contracts';
import { type Page, expect, test } from '@playwright/test';
import { AdminApi, newContextIn, selectOption, signInAsSuperAdmin, tableRows } from '../support/admin';
import { DEFAULT_MODEL } from '../support/models';
import { seriousViolations } from '../support/site-settings';
import { signInDirect } from '../support/ui';

interface Texts {
  permissionLabel: string;
  perMonth: string;
  secretWarning: RegExp;
  active: string;
  revoked: string;
  limit: string;
}

const TEXTS: Record<Language, Texts> = {
  'zh-CN': {
    permissionLabel: '个人 API 密钥',
    perMonth: '每月',
    secretWarning: /不会再次显示/,
    active: '有效',
    revoked: '已撤销',
    limit: '每月 1,000',
  },
  'en-US': {
    permissionLabel: 'Personal API keys',
    perMonth: 'Per month',
    secretWarning: /will not be shown again/,
    active: 'Active',
    revoked: 'Revoked',
    limit: '1,000 per month',
  },
};

const PHONE = { width: 375, height: 740 };

/** The page has nothing wider than the screen (no sideways scrolling at 375 px). */
async function fitsWidth(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** GET /v1/models with a key's secret: the status and the model ids. */
async function v1Models(page: Page, secret: string): Promise<{ status: number; ids: string[] }> {
  const res = await page.request.get('/v1/models', { headers: { Authorization: `Bearer ${secret}` } });
  const body = (await res.json()) as { data?: { id: string }[] };
  return { status: res.status(), ids: (body.data ?? []).map((m) => m.id) };
}

for (const language of LANGUAGES) {
  test.describe(`personal API keys (${language})`, () => {
    test.use({ locale: language });
    // Two people in two browser contexts, a page build each: the slow-test budget.
    test.slow();

    test('granted through the group, a key is made, shown once, used at /v1 and revoked', async ({
      page,
      browser,
    }, testInfo) => {
      const text = TEXTS[language];
      const admin = await AdminApi.superAdmin(page.request);
      const group = await admin.createGroup('keys');
      const owner = await admin.createUser({ prefix: 'key', groupId: group.id });

      // Without the permission the profile has no API keys tab.
      await signInDirect(page, owner.email, owner.password, '/profile');
      await expect(page.getByTestId('profile-tab-basic')).toBeVisible();
      await expect(page.getByTestId('profile-tab-api-keys')).toHaveCount(0);

      // A super administrator grants it to the whole group; the member's next look sees the tab.
      const granted = await admin.raw('PUT', `/admin/user-groups/${group.id}`, { permissions: ['api.keys'] });
      expect(granted.status(), await granted.text()).toBe(200);
      await page.goto('/profile?tab=api-keys');
      const tab = page.getByTestId('api-keys-tab');
      await expect(tab).toBeVisible();
      await expect(page.getByTestId('api-keys-base-url')).toContainText(`${new URL(page.url()).origin}/v1`);
      expect(await seriousViolations(page)).toEqual([]);

      // A key limited to one model and 1,000 credits a month.
      await page.getByTestId('api-key-create').click();
      const form = page.getByTestId('api-key-create-modal');
      await form.getByTestId('api-key-name').fill(`laptop ${language}`);
      await form.getByTestId('api-key-models').click();
      await selectOption(page, DEFAULT_MODEL.display_name).click();
      await page.keyboard.press('Escape');
      await form.getByTestId('api-key-period').click();
      await selectOption(page, text.perMonth).click();
      await form.getByTestId('api-key-credit-limit').fill('1000');
      await form.getByTestId('api-key-rpm').fill('60');
      await page.screenshot({ path: testInfo.outputPath(`form-${language}.png`) });
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('api-key-create-submit').click();

      // The secret, once, with the warning and a copy button.
      const shown = page.getByTestId('api-key-secret-modal').getByRole('dialog');
      await expect(shown).toContainText(text.secretWarning);
      const secret = (await page.getByTestId('api-key-secret').innerText()).trim();
      expect(secret).toMatch(/^sk-[A-Za-z0-9_-]{20,}$/);
      await expect(shown.getByRole('button', { name: /copy|复制/i }).first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`secret-${language}.png`) });
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('api-key-secret-done').click();
      await expect(shown).toBeHidden();

      const rows = tableRows(page, 'api-keys-table');
      await expect(rows).toHaveCount(1);
      await expect(rows.first().getByTestId('api-key-status')).toHaveText(text.active);
      await expect(rows.first().getByTestId('api-key-limit')).toContainText(text.limit);
      const prefix = (await rows.first().getByTestId('api-key-prefix').innerText()).replace('…', '');
      expect(secret.startsWith(prefix)).toBe(true);

      // After a reload only the prefix is left: the secret is nowhere on the page.
      await page.reload();
      await expect(rows.first().getByTestId('api-key-prefix')).toHaveText(`${prefix}…`);
      expect(await page.content()).not.toContain(secret);
      await page.screenshot({ path: testInfo.outputPath(`list-${language}.png`), fullPage: true });

      // The key works with /v1, narrowed to its model.
      expect(await v1Models(page, secret)).toEqual({ status: 200, ids: [DEFAULT_MODEL.name] });

      // On a phone the tab fits the screen.
      await page.setViewportSize(PHONE);
      await fitsWidth(page);
      await page.screenshot({ path: testInfo.outputPath(`list-375-${language}.png`), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);

      // A super administrator finds it in the list of every key.
      const context = await newContextIn(browser, language);
      const adminPage = await context.newPage();
      await signInAsSuperAdmin(adminPage, '/admin/api-keys');
      await adminPage.getByTestId('api-key-search').locator('input').fill(owner.username);
      await adminPage.getByTestId('api-key-search').locator('input').press('Enter');
      const adminRows = tableRows(adminPage, 'api-keys-table');
      await expect(adminRows).toHaveCount(1);
      await expect(adminRows.first().getByTestId('api-key-owner')).toContainText(owner.username);
      await expect(adminRows.first()).toContainText(`laptop ${language}`);
      expect(await seriousViolations(adminPage)).toEqual([]);
      await adminPage.screenshot({ path: testInfo.outputPath(`admin-${language}.png`), fullPage: true });
      await adminPage.setViewportSize(PHONE);
      await fitsWidth(adminPage);
      await adminPage.screenshot({ path: testInfo.outputPath(`admin-375-${language}.png`), fullPage: true });

      // The owner revokes it after confirming; /v1 refuses it from then on.
      await page.setViewportSize({ width: 1280, height: 800 });
      await rows.first().getByTestId('api-key-revoke').click();
      await page.getByTestId('api-key-revoke-confirm').click();
      await expect(rows.first().getByTestId('api-key-status')).toHaveText(text.revoked);
      await expect(rows.first().getByTestId('api-key-revoke')).toHaveCount(0);
      expect((await v1Models(page, secret)).status).toBe(401);

      // The administrators' list shows it revoked, without a revoke button.
      await adminPage.getByTestId('api-key-search').locator('input').press('Enter');
      await adminPage.reload();
      await adminPage.getByTestId('api-key-search').locator('input').fill(owner.username);
      await adminPage.getByTestId('api-key-search').locator('input').press('Enter');
      await expect(adminRows.first().getByTestId('api-key-status')).toHaveText(text.revoked);
      await expect(adminRows.first().getByTestId('admin-api-key-revoke')).toHaveCount(0);
      await context.close();
    });

    test('the group form grants permissions to every member, under their translated names', async ({
      page,
    }, testInfo) => {
      const text = TEXTS[language];
      await signInAsSuperAdmin(page, '/admin/groups');
      // The default group is always first in the list.
      await page.getByTestId('group-edit-1').click();
      const permissions = page.getByTestId('group-form-permissions');
      await expect(permissions).toContainText(text.permissionLabel);
      await expect(permissions.getByRole('checkbox', { name: text.permissionLabel })).not.toBeChecked();
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`group-form-${language}.png`) });
    });
  });
}
