import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { AdminApi, openAdminPage, searchUsers, signInAsSuperAdmin, tableRows, userRow } from '../support/admin';
import { toast } from '../support/ui';

const HEADER =
  'id,username,email,phone,role,status,group_id,group_name,credits_quota,credits_used,credits_remaining,credits_expire_at,token_quota,token_used,remark,created_at,last_login_at';

test.describe('admin CSV export', () => {
  test('exports the filtered user list as a UTF-8 CSV with BOM', async ({ page, request }) => {
    const superAdmin = await AdminApi.superAdmin(request);
    const group = await superAdmin.createGroup('导出组');
    // A remark that a spreadsheet would run as a formula must come out neutralised.
    const user = await superAdmin.createUser({ prefix: 'csv', groupId: group.id, credits: 123, remark: '=1+1' });

    await signInAsSuperAdmin(page, null);
    await openAdminPage(page, 'users');
    await searchUsers(page, user.username);
    await expect(userRow(page, user.id)).toBeVisible();
    await expect(tableRows(page, 'users-table')).toHaveCount(1);

    const exported = page.waitForResponse((r) => r.url().includes('/api/admin/users/export.csv'));
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const [response, download] = await Promise.all([exported, downloading]);
    expect(new URL(response.url()).searchParams.get('search')).toBe(user.username);
    expect(download.suggestedFilename()).toMatch(/^users-\d{8}-\d{4}\.csv$/);
    await expect(toast(page, 'CSV 文件已下载')).toBeVisible();

    const bytes = await fs.readFile(await download.path());
    // UTF-8 byte order mark, so spreadsheets read Chinese.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    const lines = text.split(/\r?\n/).filter((line) => line !== '');
    expect(lines[0]).toBe(HEADER);
    // Only the filtered user: the header and one row.
    expect(lines).toHaveLength(2);
    const row = lines[1] ?? '';
    expect(row.startsWith(`${user.id},${user.username},${user.email},`)).toBe(true);
    expect(row).toContain(`,user,active,${group.id},${group.name},123,0,123,`);
    expect(row).toContain(`'=1+1`);
    expect(text).not.toContain('admin@example.com');
  });
});
