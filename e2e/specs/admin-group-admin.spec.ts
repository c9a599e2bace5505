import { expect, test } from '@playwright/test';
import { AdminApi, dialog, openAdminPage, searchUsers, tableRows, userRow } from '../support/admin';
import { signInDirect, toast } from '../support/ui';

/**
 * A group administrator (role admin) works inside their own group only: the admin
 * screens list just that group and its members, and the audit log is not theirs.
 */
test.describe('group administrator', () => {
  test('sees only their own group and its members; no audit log', async ({ page, request }) => {
    const superAdmin = await AdminApi.superAdmin(request);
    const own = await superAdmin.createGroup('own');
    const other = await superAdmin.createGroup('other');
    const groupAdmin = await superAdmin.createUser({ prefix: 'gadm', role: 'admin', groupId: own.id });
    const member = await superAdmin.createUser({ prefix: 'memb', groupId: own.id });
    const outsider = await superAdmin.createUser({ prefix: 'outs', groupId: other.id });

    await signInDirect(page, groupAdmin.email, groupAdmin.password);

    // The admin menu offers users and groups, never the audit log.
    const adminMenu = page.getByTestId('app-sider').getByTestId('menu-admin');
    await expect(adminMenu).toBeVisible();
    await adminMenu.hover();
    await expect(page.getByTestId('menu-admin-users')).toBeVisible();
    await expect(page.getByTestId('menu-admin-groups')).toBeVisible();
    await expect(page.getByTestId('menu-admin-audit')).toHaveCount(0);
    await page.getByTestId('menu-admin-users').click();
    await expect(page).toHaveURL(/\/admin\/users$/);

    // The user list holds the group's two accounts and nobody else.
    await expect(page.getByTestId('users-table')).toBeVisible();
    await expect(userRow(page, member.id)).toBeVisible();
    await expect(userRow(page, groupAdmin.id)).toBeVisible();
    await expect(tableRows(page, 'users-table')).toHaveCount(2);
    await expect(userRow(page, outsider.id)).toHaveCount(0);
    await expect(page.getByTestId('user-filter-group')).toHaveCount(0);

    // Their group has no pool: the accounts they add start with no credits, and the form says so.
    await page.getByTestId('user-create-button').click();
    const createDialog = dialog(page, 'user-create-modal');
    await expect(createDialog).toBeVisible();
    await expect(page.getByTestId('user-create-no-credits-note')).toContainText('初始积分为 0');
    await expect(page.getByTestId('user-create-credits')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(createDialog).toBeHidden();

    // Searching for the outsider finds nothing, by username or by email.
    await searchUsers(page, outsider.username);
    await expect(page.getByTestId('users-empty')).toBeVisible();
    await expect(tableRows(page, 'users-table')).toHaveCount(0);
    await searchUsers(page, outsider.email);
    await expect(page.getByTestId('users-empty')).toBeVisible();
    await searchUsers(page, member.username);
    await expect(userRow(page, member.id)).toBeVisible();
    await expect(tableRows(page, 'users-table')).toHaveCount(1);

    // The group list holds their own group only, without management buttons.
    await openAdminPage(page, 'groups');
    const groups = tableRows(page, 'groups-table');
    await expect(groups).toHaveCount(1);
    await expect(groups).toContainText(own.name);
    await expect(page.getByTestId('groups-table')).not.toContainText(other.name);
    await expect(page.getByTestId(`group-detail-${own.id}`)).toBeVisible();
    await expect(page.getByTestId('group-create-button')).toHaveCount(0);
    await expect(page.getByTestId(`group-edit-${own.id}`)).toHaveCount(0);
    await expect(page.getByTestId(`group-delete-${own.id}`)).toHaveCount(0);

    // The audit log answers with the no-permission page.
    await page.goto('/admin/audit');
    await expect(page.getByTestId('no-permission')).toBeVisible();
    await expect(page.getByTestId('no-permission')).toContainText('无权限访问');
    await expect(page.getByTestId('audit-table')).toHaveCount(0);
    await expect(page.getByTestId('audit-verify')).toHaveCount(0);
  });

  test('distributes pool credits to a member through the pool dialog', async ({ page, request }) => {
    const superAdmin = await AdminApi.superAdmin(request);
    const group = await superAdmin.createGroup('pool');
    const groupAdmin = await superAdmin.createUser({ prefix: 'gadm', role: 'admin', groupId: group.id });
    const member = await superAdmin.createUser({ prefix: 'memb', groupId: group.id, credits: 100 });
    await superAdmin.setPool(group.id, 1000);

    await signInDirect(page, groupAdmin.email, groupAdmin.password, null);
    await openAdminPage(page, 'groups');
    await page.getByTestId(`group-detail-${group.id}`).click();
    const drawer = dialog(page, 'group-detail-drawer');
    await expect(drawer).toBeVisible();
    const pool = page.getByTestId('group-pool-card');
    await expect(pool).toContainText(/1,?000/);
    // A group administrator cannot resize the pool.
    await expect(page.getByTestId('pool-size-input')).toHaveCount(0);

    // Plain members can receive credits; the administrator cannot pay themselves.
    const members = page.getByTestId('group-members-table');
    await expect(members.locator(`tr[data-row-key="${member.id}"]`)).toContainText('100');
    await expect(page.getByTestId(`member-transfer-${groupAdmin.id}`)).toHaveCount(0);
    await page.getByTestId(`member-transfer-${member.id}`).click();

    const poolDialog = dialog(page, 'pool-modal');
    await expect(poolDialog).toBeVisible();
    await expect(page.getByTestId('pool-operation').locator('input[value="distribute"]')).toBeChecked();
    await expect(page.getByTestId('pool-member')).toContainText(member.username);
    await expect(page.getByTestId('pool-preview')).toHaveText(
      `积分池剩余 1,000 → 1,000 · ${member.username} 余额 100 → 100`,
    );
    await page.getByTestId('pool-amount').fill('250');
    // Before → after, like the credit dialog.
    await expect(page.getByTestId('pool-preview')).toHaveText(
      `积分池剩余 1,000 → 750 · ${member.username} 余额 100 → 350`,
    );
    await page.getByTestId('pool-reason').fill('Monthly allowance');
    const moved = page.waitForResponse(
      (r) =>
        r.url().endsWith(`/api/admin/user-groups/${group.id}/distribute-credits`) && r.request().method() === 'POST',
    );
    await page.getByTestId('pool-submit').click();
    const movedRes = await moved;
    expect(movedRes.status(), await movedRes.text()).toBe(200);
    await expect(toast(page, `已从 ${group.name} 向 ${member.username} 分配 250 积分，积分池剩余 750`)).toBeVisible();
    await expect(poolDialog).toBeHidden();

    // The drawer refreshes: the pool is down, the member is up.
    await expect(pool).toContainText('750');
    await expect(members.locator(`tr[data-row-key="${member.id}"]`)).toContainText('350');
    expect((await superAdmin.user(member.id)).credits_stats.remaining).toBe(350);
    const after = await superAdmin.group(group.id);
    expect(after).toMatchObject({ credits_pool: 1000, credits_pool_used: 250, credits_pool_remaining: 750 });

    // The accounts they add are paid from this pool, and the form says so with what is left.
    await page.keyboard.press('Escape');
    await openAdminPage(page, 'users');
    await page.getByTestId('user-create-button').click();
    await expect(dialog(page, 'user-create-modal')).toBeVisible();
    await expect(page.getByTestId('user-create-pool-note')).toContainText('剩余 750');
  });
});
