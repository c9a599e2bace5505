import { expect, test } from '@playwright/test';
import { waitForCode } from '../support/mail';
import { fieldError, loginViaUi, toast } from '../support/ui';
import { registerViaApi } from '../support/users';

test.describe('login', () => {
  test('signs in with username and password', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'uname' });
    await loginViaUi(page, user.username, user.password);
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
    await expect(page.getByTestId('user-menu')).toContainText(user.username);
  });

  test('a wrong password keeps the visitor on /login with an error', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'wrong' });
    await page.goto('/login');
    await expect(page.getByText('支持使用邮箱、手机号或用户名登录')).toBeVisible();
    await page.getByTestId('login-submit').click();
    await expect(fieldError(page, '请输入账号')).toBeVisible();
    await expect(fieldError(page, '请输入密码')).toBeVisible();
    await page.getByTestId('login-account').fill(user.email);
    await page.getByTestId('login-password').fill(`${user.password}-nope`);
    await page.getByTestId('login-submit').click();
    await expect(toast(page, '账号或密码错误')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signs in with an emailed code; the get-code button counts down', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'code' });
    await page.goto('/login');
    await page.getByTestId('login-tab-code').click();
    await expect(page.getByTestId('login-tab-code')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('验证码 5 分钟内有效，邮箱须已注册')).toBeVisible();

    const getCode = page.getByTestId('login-get-code');
    await expect(getCode).toHaveText('获取验证码');
    // Without an email the code is not requested.
    await getCode.click();
    await expect(toast(page, '请先输入邮箱地址')).toBeVisible();
    await expect(getCode).toBeEnabled();

    await page.getByTestId('login-code-email').fill(user.email);
    const sentAt = Date.now();
    await getCode.click();
    await expect(toast(page, '验证码已发送到您的邮箱')).toBeVisible();
    await expect(getCode).toBeDisabled();
    await expect(getCode).toHaveText(/^\d+ 秒后重新获取$/);
    const secondsLeft = async () => Number(/\d+/.exec((await getCode.textContent()) ?? '')?.[0]);
    const first = await secondsLeft();
    // It starts at 60 seconds (allowing for a slow machine) and counts down.
    expect(first).toBeLessThanOrEqual(60);
    expect(first).toBeGreaterThan(50);
    await expect.poll(secondsLeft, { timeout: 5_000 }).toBeLessThan(first);
    await expect(getCode).toBeDisabled();

    const code = await waitForCode(user.email, sentAt);
    await page.getByTestId('login-code-input').fill('12345');
    await page.getByTestId('login-code-submit').click();
    await expect(fieldError(page, '验证码为6位数字')).toBeVisible();
    await page.getByTestId('login-code-input').fill(code);
    await page.getByTestId('login-code-submit').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
  });
});
