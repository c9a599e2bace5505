import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { LANGUAGES } from '../support/admin';
import { signInDirect } from '../support/ui';
import { registerViaApi } from '../support/users';

/** Serious and critical WCAG 2.1 A/AA problems of the whole page, header and menu included. */
async function pageViolations(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const language of LANGUAGES) {
  test.describe(`accessibility of the everyday pages (${language})`, () => {
    test.use({ locale: language });
    // Four axe analyses of a few seconds each.
    test.slow();

    test('sign-in and registration: no serious problems, one h1 each', async ({ page }) => {
      for (const path of ['/login', '/register']) {
        await page.goto(path);
        await expect(page.locator('h1')).toHaveCount(1);
        expect(await pageViolations(page), path).toEqual([]);
      }
    });

    test('dashboard and profile: no serious problems, one h1; a skip link first in the tab order (to the text box on the chat)', async ({
      page,
      request,
    }) => {
      const user = await registerViaApi(request, { prefix: 'a11y' });
      await signInDirect(page, user.email, user.password);
      await expect(page.locator('h1')).toHaveCount(1);
      expect(await pageViolations(page), 'dashboard').toEqual([]);

      // The first Tab reaches the skip link, which jumps over the header and the menu.
      await page.keyboard.press('Tab');
      const skip = page.getByTestId('skip-link');
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.keyboard.press('Enter');
      await expect(page.locator('#main-content')).toBeFocused();

      // On the chat screen the skip link lands in the text box.
      await page.goto('/chat');
      await expect(page.getByTestId('chat-input')).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('h1')).toHaveCount(1);
      await page.keyboard.press('Tab');
      await expect(skip).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('chat-input')).toBeFocused();

      await page.goto('/profile');
      await expect(page.getByTestId('profile-info-card')).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('h1')).toHaveCount(1);
      expect(await pageViolations(page), 'profile').toEqual([]);
    });
  });
}
