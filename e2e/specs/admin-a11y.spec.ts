import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, dialog, openAdminPage, searchUsers, signInAsSuperAdmin, userRow } from '../support/admin';

/**
 * Serious and critical WCAG 2 A/AA violations of the admin screen as it stands (its
 * overlays included), one line each. Left out: the header and sidebar, which every page
 * shares and which are not part of the admin screens.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  // No hover state of whatever the pointer last touched.
  await page.mouse.move(0, 0);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    .exclude('header')
    .exclude('[data-testid="app-sider"]')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const language of LANGUAGES) {
  test.describe(`admin accessibility (${language})`, () => {
    test.use({ locale: language });
    // Each axe analysis takes a few seconds; the users test runs three.
    test.slow();

    test('users page, with and without the detail drawer', async ({ page, request }) => {
      const superAdmin = await AdminApi.superAdmin(request);
      const user = await superAdmin.createUser({ prefix: 'a11y', credits: 100 });
      await superAdmin.adjustCredits(user.id, { operation: 'add', amount: 5, reason: 'a11y ledger line' });

      await signInAsSuperAdmin(page);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await openAdminPage(page, 'users');
      await searchUsers(page, user.username);
      await expect(userRow(page, user.id)).toBeVisible();
      // Bulk bar visible too.
      await userRow(page, user.id).locator('input.ant-checkbox-input').check();
      await expect(page.getByTestId('bulk-actions')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByTestId(`user-detail-${user.id}`).click();
      await expect(dialog(page, 'user-detail-drawer')).toBeVisible();
      await expect(page.getByTestId('user-tab-basic')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('user-tab-credits').click();
      await expect(page.getByTestId('credit-ledger-table').locator('tbody tr.ant-table-row')).toHaveCount(2);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('groups page', async ({ page, request }) => {
      const superAdmin = await AdminApi.superAdmin(request);
      await superAdmin.createGroup('a11y');
      await signInAsSuperAdmin(page, null);
      await openAdminPage(page, 'groups');
      await expect(page.getByTestId('groups-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('audit page', async ({ page, request }) => {
      // At least one entry in the log, whatever else has run.
      await (await AdminApi.superAdmin(request)).createGroup('a11y');
      await signInAsSuperAdmin(page, null);
      await openAdminPage(page, 'audit');
      await expect(page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
      await page.getByTestId('audit-verify').click();
      await expect(page.getByTestId('audit-chain-valid')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
