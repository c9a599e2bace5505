import { expect, test } from '@playwright/test';
import {
  AdminApi,
  openAdminPage,
  popconfirmOk,
  searchUsers,
  signInAsSuperAdmin,
  tableRows,
  userRow,
} from '../support/admin';
import { toast } from '../support/ui';
import { uniqueToken } from '../support/users';

test.describe('admin bulk actions', () => {
  // That the accounts are then refused (sessions ended, sign-in answered 403 ACCOUNT_DISABLED)
  // is the server's to prove (admin-users.test.ts, login.test.ts); the login page shows a
  // refusal's message like any other (login.spec.ts).
  test('bulk disable: two selected users become inactive', async ({ page, request }) => {
    // A search, a bulk change and two rows to follow: more than the default budget on a busy machine.
    test.slow();
    const superAdmin = await AdminApi.superAdmin(request);
    // A shared tag in both usernames lets one search list exactly these two.
    const tag = `bk${uniqueToken()}`;
    const first = await superAdmin.createUser({ username: `${tag}a` });
    const second = await superAdmin.createUser({ username: `${tag}b` });

    await signInAsSuperAdmin(page, null);
    await openAdminPage(page, 'users');
    await searchUsers(page, tag);
    await expect(tableRows(page, 'users-table')).toHaveCount(2);
    for (const user of [first, second]) {
      await expect(userRow(page, user.id).getByTestId('status-active')).toBeVisible();
      await userRow(page, user.id).locator('input.ant-checkbox-input').check();
    }
    await expect(page.getByTestId('bulk-actions')).toBeVisible();
    await expect(page.getByTestId('bulk-selected-count')).toHaveText('已选 2 项');

    await page.getByTestId('bulk-disable').click();
    const confirm = popconfirmOk(page, '确定禁用选中的 2 个用户？');
    await expect(confirm).toBeVisible();
    const bulk = page.waitForResponse((r) => r.url().endsWith('/api/admin/users/bulk'));
    await confirm.click();
    const bulkRes = await bulk;
    expect(bulkRes.status(), await bulkRes.text()).toBe(200);
    expect(JSON.parse(bulkRes.request().postData() ?? '{}')).toMatchObject({ action: 'disable' });
    await expect(toast(page, '已禁用 2 个用户')).toBeVisible();

    for (const user of [first, second]) {
      await expect(userRow(page, user.id).getByTestId('status-inactive')).toBeVisible();
      await expect(userRow(page, user.id).getByTestId('status-active')).toHaveCount(0);
    }
    // The selection is cleared with the bar.
    await expect(page.getByTestId('bulk-actions')).toHaveCount(0);
    expect((await superAdmin.user(first.id)).status).toBe('inactive');
    expect((await superAdmin.user(second.id)).status).toBe('inactive');
  });
});
