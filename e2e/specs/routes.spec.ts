import { type Page, expect, test } from '@playwright/test';
import { signInAsSuperAdmin } from '../support/admin';
import { signInDirect, toast } from '../support/ui';
import { registerViaApi } from '../support/users';

test.describe('routes', () => {
  test('a visitor: / goes to /login, protected and unknown routes ask to log in', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-account')).toBeVisible();
    await expect(toast(page, '请先登录')).toHaveCount(0);
    await expect(page).toHaveTitle(/^登录 · .+/);

    // Signing in leads to the dashboard anyway, so /login names no page to return to.
    await page.goto('/dashboard');
    await expect(toast(page, '请先登录')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fno%2Fsuch%2Fpage$/);
    await expect(toast(page, '请先登录')).toBeVisible();
  });

  test('a visitor opening a deep link signs in and lands on that page', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'route' });
    await page.goto('/profile?tab=credits');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile%3Ftab%3Dcredits$/);
    await expect(toast(page, '请先登录')).toBeVisible();

    await page.getByTestId('login-account').fill(user.email);
    await page.getByTestId('login-password').fill(user.password);
    await page.getByTestId('login-submit').click();
    // The first load of the signed-in code on a loaded 2-core machine can pass the default 10 s.
    await expect(page).toHaveURL(/\/profile\?tab=credits$/, { timeout: 30_000 });
    await expect(page.getByTestId('profile-info-card')).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveTitle(/^个人中心 · .+/);
  });

  test('a signed-in user: /, /login and /register lead on, unknown routes show the 404 page', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'route' });
    await signInDirect(page, user.email, user.password);
    await expect(page).toHaveTitle(/^仪表盘 · .+/);

    for (const path of ['/', '/login', '/register']) {
      await page.goto(path);
      await expect(page, `from ${path}`).toHaveURL(/\/dashboard$/);
      await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
    }
    // A signed-in user on /login still follows the page it names.
    await page.goto('/login?redirect=%2Fprofile');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('profile-info-card')).toBeVisible();

    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/no\/such\/page$/);
    await expect(page.getByTestId('not-found-title')).toHaveText('页面不存在');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await expect(page).toHaveTitle(/^页面不存在 · .+/);
    await page.getByTestId('not-found-home').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
  });

  test('signed-in pages keep the strict content security policy without a single violation', async ({
    page,
    request,
  }) => {
    test.slow();
    const violations = await recordCspViolations(page);
    const user = await registerViaApi(request, { prefix: 'csp' });
    await signInDirect(page, user.email, user.password);
    // The chat page parses with the contract's schemas; the profile and the dashboard too.
    for (const [path, ready] of [
      ['/chat', 'chat-sidebar'],
      ['/profile', 'profile-info-card'],
      ['/dashboard', 'dashboard-welcome'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByTestId(ready)).toBeVisible({ timeout: 30_000 });
    }
    await signInAsSuperAdmin(page, '/admin/settings');
    await expect(page.getByRole('tab').first()).toBeVisible({ timeout: 30_000 });
    // Reports are queued: give the last page's a moment to arrive.
    await page.waitForTimeout(500);
    expect(violations).toEqual([]);
  });
});

/**
 * Every `securitypolicyviolation` event of every document the page loads, and the
 * console's "Refused to …" lines, as "directive: blocked" texts.
 */
async function recordCspViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeBinding('__cspViolation', (_source, text: string) => void seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation;
      report(`${e.violatedDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}
