import { expect, test } from '@playwright/test';
import { waitForCode } from '../support/mail';
import { patchSection } from '../support/settings';
import { toast } from '../support/ui';
import { newUserData } from '../support/users';

// These change global settings of the one shared server: they run alone (project
// 'settings', after every other spec), one at a time, and put the settings back.
test.describe.configure({ mode: 'serial' });

test.describe('login mode: high security', () => {
  let restore: (() => void) | undefined;
  test.afterEach(() => {
    restore?.();
    restore = undefined;
  });

  test('one form needs email, password and code together', async ({ page }) => {
    const user = newUserData('sec');
    restore = patchSection('login', { mode: 'email_verify_required' });

    // A new account cannot be signed in without a code: the login page opens with its address.
    await page.goto('/register');
    await page.getByTestId('register-email').fill(user.email);
    await page.getByTestId('register-username').fill(user.username);
    await page.getByTestId('register-password').fill(user.password);
    await page.getByTestId('register-confirm-password').fill(user.password);
    await page.getByTestId('register-submit').click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, '注册成功，请登录')).toBeVisible();
    await expect(page.getByTestId('login-secure-email')).toHaveValue(user.email);
    await expect(page.getByTestId('login-secure-password')).toBeVisible();
    await expect(page.getByTestId('login-secure-code-input')).toBeVisible();
    await expect(page.getByText('高安全模式：需同时验证邮箱、密码和验证码，验证码 5 分钟内有效')).toBeVisible();
    await expect(page.getByTestId('login-tab-password')).toHaveCount(0);
    await expect(page.getByTestId('login-tab-code')).toHaveCount(0);
    await expect(page.getByTestId('login-account')).toHaveCount(0);

    await page.getByTestId('login-secure-password').fill(user.password);
    const sentAt = Date.now();
    await page.getByTestId('login-secure-get-code').click();
    await expect(toast(page, '验证码已发送到您的邮箱')).toBeVisible();
    await expect(page.getByTestId('login-secure-get-code')).toBeDisabled();
    const code = await waitForCode(user.email, sentAt);

    // A wrong password with the right code is refused.
    await page.getByTestId('login-secure-password').fill(`${user.password}-wrong`);
    await page.getByTestId('login-secure-code-input').fill(code);
    await page.getByTestId('login-secure-submit').click();
    await expect(toast(page, '账号或密码错误')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByTestId('login-secure-password').fill(user.password);
    await page.getByTestId('login-secure-submit').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
  });

  test('back in standard mode the two tabs return', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByTestId('login-tab-password')).toBeVisible();
    await expect(page.getByTestId('login-tab-code')).toBeVisible();
    await expect(page.getByTestId('login-secure-email')).toHaveCount(0);
  });
});

test.describe('registration with email verification', () => {
  let restore: (() => void) | undefined;
  test.afterEach(() => {
    restore?.();
    restore = undefined;
  });

  test('the sign-up form asks for a code mailed to the new address', async ({ page }) => {
    restore = patchSection('user', { email_verification: true });
    const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    const email = `verify_${suffix}@example.com`;

    await page.goto('/register');
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-username').fill(`v_${suffix}`.slice(0, 20));
    await page.getByTestId('register-password').fill('secret123');
    await page.getByTestId('register-confirm-password').fill('secret123');
    await expect(page.getByTestId('register-code-input')).toBeVisible();
    const sentAt = Date.now();
    await page.getByTestId('register-get-code').click();
    await expect(toast(page, '验证码已发送到您的邮箱')).toBeVisible();
    await page.getByTestId('register-code-input').fill(await waitForCode(email, sentAt));
    await page.getByTestId('register-submit').click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
