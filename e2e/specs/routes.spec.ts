import { expect, test } from '@playwright/test';
import { loginViaUi, toast } from '../support/ui';
import { registerViaApi } from '../support/users';

test.describe('routes', () => {
  test('a visitor: / goes to /login, protected and unknown routes ask to log in', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-account')).toBeVisible();
    await expect(toast(page, '请先登录')).toHaveCount(0);

    await page.goto('/dashboard');
    await expect(toast(page, '请先登录')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, '请先登录')).toBeVisible();
  });

  test('a signed-in user: /, unknown routes, /login and /register all lead to /dashboard', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'route' });
    await loginViaUi(page, user.email, user.password);
    for (const path of ['/', '/no/such/page', '/login', '/register']) {
      await page.goto(path);
      await expect(page, `from ${path}`).toHaveURL(/\/dashboard$/);
      await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
    }
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('profile-info-card')).toBeVisible();
  });
});
