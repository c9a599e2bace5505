import { expect, test } from '@playwright/test';
import { ADMIN } from '../support/global-setup';
import { signInDirect } from '../support/ui';
import { registerViaApi } from '../support/users';

test.describe('layout on desktop', () => {
  test('header shows the site name, the user and an icon sidebar with the menu', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'lay' });
    await signInDirect(page, user.email, user.password);
    await expect(page.getByTestId('site-name')).toHaveText('AI 智能平台');
    await expect(page.getByTestId('user-menu')).toContainText(user.username);
    await expect(page.getByTestId('app-sider')).toBeVisible();
    await expect(page.getByTestId('drawer-toggle')).toHaveCount(0);
    await page.getByTestId('app-sider').getByTestId('menu-chat').click();
    await expect(page).toHaveURL(/\/chat$/);
    await page.getByTestId('app-sider').getByTestId('menu-dashboard').click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Expanded, the menu shows its labels, and stays so after a reload.
    const sider = page.getByTestId('app-sider');
    const toggle = page.getByTestId('nav-toggle');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(sider.getByText('AI 对话')).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(sider.getByText('AI 对话')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('nav-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(sider.getByText('AI 对话')).toBeVisible();
    expect((await sider.boundingBox())?.width).toBeGreaterThan(150);
    await page.getByTestId('nav-toggle').click();
    await expect(sider.getByText('AI 对话')).toBeHidden();
  });

  test('an ordinary user has no admin menu group', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'plain' });
    await signInDirect(page, user.email, user.password);
    const sider = page.getByTestId('app-sider');
    await expect(sider.getByTestId('menu-dashboard')).toBeVisible();
    await expect(sider.getByTestId('menu-chat')).toBeVisible();
    await expect(page.getByTestId('menu-admin')).toHaveCount(0);
    await expect(page.getByTestId('menu-admin-users')).toHaveCount(0);
    await expect(page.getByTestId('menu-admin-settings')).toHaveCount(0);
  });

  test('the super administrator sees the admin group with users and settings', async ({ page }) => {
    await signInDirect(page, ADMIN.email, ADMIN.password);
    const group = page.getByTestId('app-sider').getByTestId('menu-admin');
    await expect(group).toBeVisible();
    await group.hover();
    const users = page.getByTestId('menu-admin-users');
    const settings = page.getByTestId('menu-admin-settings');
    await expect(users).toBeVisible();
    await expect(users).toHaveText('用户管理');
    await expect(settings).toBeVisible();
    await expect(settings).toHaveText('系统设置');
    await users.click();
    await expect(page).toHaveURL(/\/admin\/users$/);
  });
});

test.describe('layout on a phone (375 px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the sidebar gives way to a drawer whose menu navigates', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'mob' });
    await signInDirect(page, user.email, user.password);
    await expect(page.getByTestId('app-sider')).toHaveCount(0);
    // The bell stays: credit warnings matter on a phone too.
    await expect(page.getByTestId('notification-bell')).toBeVisible();
    const drawer = page.getByTestId('nav-drawer');
    await expect(drawer).toBeHidden();

    await page.getByTestId('drawer-toggle').click();
    await expect(drawer).toBeVisible();
    await expect(drawer.getByText('导航菜单')).toBeVisible();
    await expect(drawer.getByTestId('menu-dashboard')).toHaveText('仪表盘');
    await expect(drawer.getByTestId('menu-chat')).toHaveText('AI 对话');
    await expect(drawer.getByTestId('menu-admin-users')).toHaveCount(0);

    await drawer.getByTestId('menu-chat').click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(drawer).toBeHidden();

    await page.getByTestId('drawer-toggle').click();
    await drawer.getByTestId('menu-dashboard').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard-welcome')).toBeVisible();
  });

  test('the admin group is in the drawer for the super administrator', async ({ page }) => {
    await signInDirect(page, ADMIN.email, ADMIN.password);
    await page.getByTestId('drawer-toggle').click();
    const drawer = page.getByTestId('nav-drawer');
    await expect(drawer.getByTestId('menu-admin-users')).toBeVisible();
    await expect(drawer.getByTestId('menu-admin-settings')).toBeVisible();
    await drawer.getByTestId('menu-admin-settings').click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
  });
});
