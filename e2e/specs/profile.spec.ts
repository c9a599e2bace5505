import { expect, test } from '@playwright/test';
import { chooseUserMenu, signInDirect, toast } from '../support/ui';
import { registerViaApi, uniquePhone, uniqueToken } from '../support/users';

test.describe('profile', () => {
  test('the info card shows the account and edits of username and phone survive a reload', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'prof' });
    await signInDirect(page, user.email, user.password);
    await chooseUserMenu(page, 'profile');
    await expect(page).toHaveURL(/\/profile$/);

    const card = page.getByTestId('profile-info-card');
    await expect(card).toContainText(user.email);
    await expect(card).toContainText(user.username);
    await expect(card).toContainText('未设置');
    await expect(card).toContainText('普通用户');
    await expect(card).toContainText(/1,?000/);
    await expect(page.getByTestId('profile-email')).toBeDisabled();
    await expect(page.getByTestId('profile-email')).toHaveValue(user.email);

    const newName = `ed_${uniqueToken()}`;
    const newPhone = uniquePhone();
    await page.getByTestId('profile-username').fill(newName);
    await page.getByTestId('profile-phone').fill(newPhone);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/auth/profile') && r.request().method() === 'PUT');
    await page.getByTestId('profile-save').click();
    expect((await saved).status()).toBe(200);
    await expect(toast(page, '个人信息已更新')).toBeVisible();
    await expect(card).toContainText(newName);

    await page.reload();
    await expect(card).toContainText(newName);
    await expect(card).toContainText(newPhone);
    await expect(card).not.toContainText('未设置');
    await expect(page.getByTestId('profile-username')).toHaveValue(newName);
    await expect(page.getByTestId('profile-phone')).toHaveValue(newPhone);
    await expect(page.getByTestId('user-menu')).toContainText(newName);
    // That the new username signs in is the server's to prove (profile.test.ts).
  });

  test('profile form rejects an invalid username and phone', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'pval' });
    await signInDirect(page, user.email, user.password, null);
    await page.goto('/profile');
    let saves = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/profile')) saves += 1;
    });
    await page.getByTestId('profile-username').fill('x');
    await page.getByTestId('profile-phone').fill('23800000000');
    await page.getByTestId('profile-save').click();
    await expect(
      page.locator('.ant-form-item-explain-error').filter({ hasText: '用户名长度为3-20个字符' }),
    ).toBeVisible();
    await expect(
      page.locator('.ant-form-item-explain-error').filter({ hasText: '请输入有效的手机号码' }),
    ).toBeVisible();
    // Fixing the fields lets exactly one save through.
    await page.getByTestId('profile-username').fill(user.username);
    await page.getByTestId('profile-phone').fill('');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/auth/profile'));
    await page.getByTestId('profile-save').click();
    expect((await saved).status()).toBe(200);
    expect(saves).toBe(1);
  });

  test('changing the password: a wrong old one is refused in the dialog; then the old one stops working, the new one works', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'pwd' });
    const newPassword = `New-${uniqueToken()}`;
    await signInDirect(page, user.email, user.password, null);
    await page.goto('/profile');

    await page.getByTestId('change-password-button').click();
    const modal = page.getByTestId('change-password-modal');
    await expect(modal.getByText('修改密码')).toBeVisible();
    await page.getByTestId('change-password-old').fill(`${user.password}-wrong`);
    await page.getByTestId('change-password-new').fill(newPassword);
    await page.getByTestId('change-password-confirm').fill(`${newPassword}x`);
    await page.getByTestId('change-password-submit').click();
    await expect(modal.getByText('两次输入的密码不一致')).toBeVisible();
    await page.getByTestId('change-password-confirm').fill(newPassword);

    // A wrong old password: the server's reason, and the dialog stays open to correct it.
    await page.getByTestId('change-password-submit').click();
    await expect(toast(page, '原密码错误')).toBeVisible();
    await expect(modal.getByTestId('change-password-old')).toBeVisible();

    await page.getByTestId('change-password-old').fill(user.password);
    const changed = page.waitForResponse((r) => r.url().endsWith('/api/auth/password'));
    await page.getByTestId('change-password-submit').click();
    expect((await changed).status()).toBe(200);
    await expect(toast(page, '密码已修改')).toBeVisible();
    await expect(page.getByTestId('change-password-old')).toBeHidden();

    await chooseUserMenu(page, 'logout');
    await expect(page).toHaveURL(/\/login$/);

    await page.getByTestId('login-account').fill(user.email);
    await page.getByTestId('login-password').fill(user.password);
    await page.getByTestId('login-submit').click();
    await expect(toast(page, '账号或密码错误')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByTestId('login-password').fill(newPassword);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard-welcome')).toHaveText(`欢迎回来，${user.username}`);
  });

  test('the credit history lists the registration grant', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'hist' });
    await signInDirect(page, user.email, user.password, null);
    await page.goto('/profile');
    await page.getByTestId('profile-tab-credits').click();
    const table = page.getByTestId('credit-history-table');
    const row = table.locator('tbody tr.ant-table-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('注册赠送');
    await expect(row).toContainText(/\+1,?000/);
    await expect(table.locator('thead')).toContainText('变动后余额');
  });
});
