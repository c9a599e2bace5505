import { type Page, expect, test } from '@playwright/test';
import { fieldError, toast } from '../support/ui';
import { newUserData, registerViaApi } from '../support/users';

/** Placeholders of the registration form wider than their input's text area. */
function overflowingPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return ['no canvas'];
    return Array.from(document.querySelectorAll<HTMLInputElement>('input[placeholder]')).flatMap((input) => {
      const style = getComputedStyle(input);
      context.font = style.font;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText(input.placeholder).width > room ? [input.placeholder] : [];
    });
  });
}

test.describe('registration', () => {
  test('a new user registers and is signed in at once, on the dashboard with 1000 credits', async ({ page }) => {
    const user = newUserData('reg', true);
    // At phone width every placeholder fits its field, in both languages.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/login');
    await page.getByTestId('register-link').click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByTestId('register-username')).toBeVisible();
    expect(await overflowingPlaceholders(page)).toEqual([]);
    await page.getByTestId('language-switch').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    expect(await overflowingPlaceholders(page)).toEqual([]);
    await page.getByTestId('language-switch').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

    await page.getByTestId('register-email').fill(user.email);
    await page.getByTestId('register-username').fill(user.username);
    await page.getByTestId('register-phone').fill(user.phone ?? '');
    await page.getByTestId('register-password').fill(user.password);
    await page.getByTestId('register-confirm-password').fill(user.password);
    const registered = page.waitForResponse(
      (r) => r.url().endsWith('/api/auth/register') && r.request().method() === 'POST',
    );
    await page.getByTestId('register-submit').click();
    expect((await registered).status()).toBe(201);

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toast(page, '注册成功，已为您登录')).toBeVisible();
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
    const credits = page.getByTestId('credits-card');
    await expect(credits).toBeVisible();
    await expect(credits.getByTestId('credits-remaining')).toContainText('剩余积分');
    await expect(credits.getByTestId('credits-remaining')).toContainText(/1,?000/);
  });

  test('the form validates every field and sends nothing while any is wrong', async ({ page, request }) => {
    const taken = await registerViaApi(request, { prefix: 'taken' });
    const fresh = newUserData('fresh');
    const registerCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/register')) registerCalls.push(r.method());
    });

    await page.goto('/register');
    const email = page.getByTestId('register-email');
    const username = page.getByTestId('register-username');
    const phone = page.getByTestId('register-phone');
    const password = page.getByTestId('register-password');
    const confirm = page.getByTestId('register-confirm-password');

    // Empty form: the required fields complain.
    await page.getByTestId('register-submit').click();
    await expect(fieldError(page, '请输入邮箱地址')).toBeVisible();
    await expect(fieldError(page, '请输入用户名')).toBeVisible();
    await expect(fieldError(page, '请输入密码')).toBeVisible();
    await expect(fieldError(page, '请确认密码')).toBeVisible();

    await email.fill('not-an-email');
    await expect(fieldError(page, '邮箱格式不正确')).toBeVisible();
    await email.fill(taken.email);
    await expect(fieldError(page, '该邮箱已被注册')).toBeVisible();

    await username.fill('ab');
    await expect(fieldError(page, '用户名长度为3-20个字符')).toBeVisible();
    await username.fill('bad name!');
    await expect(fieldError(page, '用户名只能包含字母、数字、下划线和连字符')).toBeVisible();
    await username.fill(taken.username);
    await expect(fieldError(page, '该用户名已被占用')).toBeVisible();

    await phone.fill('12345678901');
    await expect(fieldError(page, '请输入有效的手机号码')).toBeVisible();

    await password.fill('12345');
    await expect(fieldError(page, '密码至少6个字符')).toBeVisible();
    await password.fill(fresh.password);
    await confirm.fill(`${fresh.password}x`);
    await expect(fieldError(page, '两次输入的密码不一致')).toBeVisible();

    await page.getByTestId('register-submit').click();
    await expect(fieldError(page, '该邮箱已被注册')).toBeVisible();
    await expect(fieldError(page, '该用户名已被占用')).toBeVisible();
    await expect(fieldError(page, '请输入有效的手机号码')).toBeVisible();
    await expect(fieldError(page, '两次输入的密码不一致')).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);

    // Corrected, the same form is sent exactly once: the earlier clicks sent nothing.
    await email.fill(fresh.email);
    await username.fill(fresh.username);
    await phone.fill('');
    await confirm.fill(fresh.password);
    await expect(page.locator('.ant-form-item-explain-error')).toHaveCount(0);
    const registered = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'));
    await page.getByTestId('register-submit').click();
    expect((await registered).status()).toBe(201);
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(registerCalls).toEqual(['POST']);
  });
});
