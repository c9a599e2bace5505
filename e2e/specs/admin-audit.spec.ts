import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { AdminApi, selectOption, tableRows } from '../support/admin';
import { signInDirect } from '../support/ui';

test.describe('admin audit log', () => {
  test('lists an administrator’s actions and verifies the hash chain', async ({ page, request }) => {
    // A super administrator of its own, so that filtering by actor isolates this test's actions
    // from everything the other workers record at the same time.
    const root = await AdminApi.superAdmin(request);
    const actorUser = await root.createUser({ prefix: 'aud', role: 'super_admin' });
    const actor = await AdminApi.as(request, actorUser);
    const group = await actor.createGroup('audit');
    const member = await actor.createUser({ prefix: 'audm', groupId: group.id });
    await actor.adjustCredits(member.id, { operation: 'add', amount: 42, reason: 'audit trail' });
    await actor.setStatus(member.id, 'inactive');
    const expected = [
      { action: 'user.disable', target: `user #${member.id}` },
      { action: 'user.credits.add', target: `user #${member.id}` },
      { action: 'user.create', target: `user #${member.id}` },
      { action: 'group.create', target: `group #${group.id}` },
    ];

    await signInDirect(page, actorUser.email, actorUser.password);
    const adminMenu = page.getByTestId('app-sider').getByTestId('menu-admin');
    await adminMenu.hover();
    await page.getByTestId('menu-admin-audit').click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByTestId('audit-table')).toBeVisible();

    // Narrow the log to this actor.
    const listed = page.waitForResponse(
      (r) =>
        r.url().includes('/api/admin/audit-logs?') &&
        new URL(r.url()).searchParams.get('actor_id') === String(actorUser.id),
    );
    await page.getByTestId('audit-filter-actor').click();
    await page.getByTestId('audit-filter-actor').locator('input').fill(actorUser.username);
    await selectOption(page, actorUser.username).click();
    expect((await listed).status()).toBe(200);

    const rows = tableRows(page, 'audit-table');
    await expect(rows).toHaveCount(expected.length);
    for (const [i, entry] of expected.entries()) {
      await expect(rows.nth(i)).toContainText(entry.action);
      await expect(rows.nth(i)).toContainText(entry.target);
      await expect(rows.nth(i)).toContainText(`${actorUser.username} (#${actorUser.id})`);
    }

    // The recorded change of the credit operation opens under its row.
    await rows.nth(1).locator('.ant-table-row-expand-icon').click();
    await expect(page.getByTestId('audit-after')).toContainText('audit trail');

    await page.getByTestId('audit-verify').click();
    await expect(page.getByTestId('audit-chain-valid')).toBeVisible();
    await expect(page.getByTestId('audit-chain-valid')).toContainText('审计哈希链完整');
    await expect(page.getByTestId('audit-chain-broken')).toHaveCount(0);

    // A signed checkpoint of the head is downloaded to be kept elsewhere; verify compares with it.
    const download = page.waitForEvent('download');
    await page.getByTestId('audit-checkpoint-create').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-checkpoint-\d+-\d{8}-\d{4}\.json$/);
    const saved = JSON.parse(fs.readFileSync(await file.path(), 'utf8')) as { format: string; signature: string };
    expect(saved.format).toBe('aiplatform.audit-checkpoint.v1');
    expect(saved.signature).toMatch(/^[0-9a-f]{64}$/);
    // What to do with the file stays on the page, clear of the buttons above it.
    await expect(page.getByTestId('audit-checkpoint-saved')).toContainText('请将文件保存在本服务器之外');
    await page.getByTestId('audit-verify').click();
    await expect(page.getByTestId('audit-checkpoint-compared')).toContainText('已与');

    // The kept file is checked against the log.
    const verified = page.waitForResponse((r) => r.url().endsWith('/api/admin/audit-logs/checkpoints/verify'));
    await page
      .getByTestId('audit-checkpoint-check')
      .locator('xpath=ancestor::span[contains(@class,"ant-upload")]//input[@type="file"]')
      .setInputFiles(await file.path());
    expect((await verified).status()).toBe(200);
    await expect(page.getByTestId('audit-chain-valid')).toBeVisible();
  });
});
