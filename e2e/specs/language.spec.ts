import { type Page, expect, test } from '@playwright/test';
import { signInDirect, toast } from '../support/ui';
import { registerViaApi } from '../support/users';

const storedLanguage = (page: Page) => page.evaluate(() => window.localStorage.getItem('i18nextLng'));

test.describe('language', () => {
  test('the login page switches to English, keeps it after a reload, and switches back', async ({ page }) => {
    await page.goto('/login');
    const sw = page.getByTestId('language-switch');
    await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
    await expect(page.getByTestId('login-tab-password')).toHaveText('密码登录');
    await expect(sw).toHaveText('English');

    await sw.click();
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(page.getByTestId('login-tab-password')).toHaveText('Password');
    await expect(page.getByTestId('login-tab-code')).toHaveText('Email code');
    await expect(page.getByText('You can log in with your email, phone number or username')).toBeVisible();
    await expect(page.getByTestId('register-link')).toHaveText('Register');
    await expect(sw).toHaveText('中文');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    expect(await storedLanguage(page)).toBe('en-US');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(page.getByTestId('login-tab-password')).toHaveText('Password');
    // Validation messages follow the language too.
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('Please enter your account')).toBeVisible();

    await page.getByTestId('language-switch').click();
    await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
    await expect(page.getByTestId('login-tab-password')).toHaveText('密码登录');
    expect(await storedLanguage(page)).toBe('zh-CN');
    await page.reload();
    await expect(page.getByTestId('login-tab-password')).toHaveText('密码登录');
  });

  test('the register page offers the switch as well', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: '注册账号' })).toBeVisible();
    await page.getByTestId('language-switch').click();
    await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await expect(page.getByTestId('register-submit')).toHaveText('Register');
    expect(await storedLanguage(page)).toBe('en-US');
  });

  test('the layout header switch changes the signed-in screens', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'lang' });
    await signInDirect(page, user.email, user.password);
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
    await expect(page.getByTestId('credits-card')).toContainText('积分中心');

    await page.getByTestId('language-switch').click();
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`Welcome back, ${user.username}`);
    await expect(page.getByTestId('credits-card')).toContainText('Credits');
    await expect(page.getByTestId('credits-remaining')).toContainText('Remaining');
    expect(await storedLanguage(page)).toBe('en-US');

    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('user-menu-profile')).toHaveText('Profile');
    await expect(page.getByTestId('user-menu-logout')).toHaveText('Log out');
    await page.getByTestId('user-menu-profile').click();
    await expect(page.getByTestId('profile-tab-credits')).toHaveText('Credit history');

    await page.reload();
    await expect(page.getByTestId('profile-tab-credits')).toHaveText('Credit history');
    await page.getByTestId('language-switch').click();
    await expect(page.getByTestId('profile-tab-credits')).toHaveText('积分记录');
    expect(await storedLanguage(page)).toBe('zh-CN');
  });
});

test.describe('language detection with an English browser', () => {
  test.use({ locale: 'en-US' });

  test('without a stored choice the browser language wins; server messages follow it', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'en' });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await page.getByTestId('login-account').fill(user.email);
    await page.getByTestId('login-password').fill(`${user.password}-wrong`);
    await page.getByTestId('login-submit').click();
    await expect(toast(page, 'Wrong account or password')).toBeVisible();
  });

  test('a stored value that looks like script injection is discarded', async ({ page }) => {
    await page.addInitScript(() => {
      if (!window.sessionStorage.getItem('seeded')) {
        window.sessionStorage.setItem('seeded', '1');
        window.localStorage.setItem('i18nextLng', 'zh"><script>alert(1)</script>');
      }
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(page.getByTestId('login-tab-password')).toHaveText('Password');
    expect(await storedLanguage(page)).not.toContain('script');
  });

  test('a stored choice beats the browser language', async ({ page }) => {
    await page.addInitScript(() => {
      if (!window.sessionStorage.getItem('seeded')) {
        window.sessionStorage.setItem('seeded', '1');
        window.localStorage.setItem('i18nextLng', 'zh-CN');
      }
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
    await expect(page.getByTestId('login-tab-password')).toHaveText('密码登录');
  });
});
