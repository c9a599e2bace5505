import { expect, test } from '@playwright/test';
import {
  type Language,
  LANGUAGES,
  dialog,
  newContextIn,
  openAdminPage,
  searchUsers,
  signInAsSuperAdmin,
  selectOption,
  userRow,
} from '../support/admin';
import { signInDirect, toast } from '../support/ui';
import { newUserData } from '../support/users';

interface Texts {
  created: (name: string) => string;
  adminRole: string;
  userRole: string;
  preview: string;
  added: (name: string) => string;
  ledgerType: string;
  historyTab: string;
}

const OPENING = 200;
const ADDED = 300;
const BALANCE = OPENING + ADDED;

const TEXTS: Record<Language, Texts> = {
  'zh-CN': {
    created: (name) => `已创建用户 ${name}`,
    adminRole: '管理员',
    userRole: '普通用户',
    preview: `余额 ${OPENING} → ${BALANCE}`,
    added: (name) => `已为 ${name} 增加 ${ADDED} 积分，余额 ${BALANCE}`,
    ledgerType: '管理员充值',
    historyTab: '积分记录',
  },
  'en-US': {
    created: (name) => `User ${name} created`,
    adminRole: 'Administrator',
    userRole: 'User',
    preview: `Balance ${OPENING} → ${BALANCE}`,
    added: (name) => `Added ${ADDED} credits to ${name}; balance ${BALANCE}`,
    ledgerType: 'Added by administrator',
    historyTab: 'Credit history',
  },
};

for (const language of LANGUAGES) {
  test.describe(`admin credits (${language})`, () => {
    test.use({ locale: language });
    // Two browser contexts and two sign-ins: on a loaded 2-core machine this runs close to
    // the default 45 s, so it gets the slow-test budget rather than a chance to time out.
    test.slow();

    test('the super administrator creates a user, adds credits with a reason, and the user sees them', async ({
      page,
      browser,
    }) => {
      const text = TEXTS[language];
      const data = newUserData('crd');
      const reason = `Bonus ${data.username}`;

      await signInAsSuperAdmin(page);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await openAdminPage(page, 'users');

      // Create the account through the "add user" dialog.
      await page.getByTestId('user-create-button').click();
      const createDialog = dialog(page, 'user-create-modal');
      await expect(createDialog).toBeVisible();
      await page.getByTestId('user-create-username').fill(data.username);
      await page.getByTestId('user-create-email').fill(data.email);
      await page.getByTestId('user-create-password').fill(data.password);
      await page.getByTestId('user-create-credits').fill(String(OPENING));
      await page.getByTestId('user-create-remark').fill('created by e2e');
      // An administrator: the next "add user" must not silently inherit the role.
      await page.getByTestId('user-create-role').click();
      await selectOption(page, new RegExp(`^${text.adminRole}$`)).click();
      const created = page.waitForResponse(
        (r) => r.url().endsWith('/api/admin/users') && r.request().method() === 'POST',
      );
      await page.getByTestId('user-create-submit').click();
      const createdRes = await created;
      expect(createdRes.status(), await createdRes.text()).toBe(201);
      const createdUser = ((await createdRes.json()) as { data: { id: number; role: string } }).data;
      expect(createdUser.role).toBe('admin');
      const userId = createdUser.id;
      await expect(toast(page, text.created(data.username))).toBeVisible();
      await expect(createDialog).toBeHidden();

      // Opened again, the form is empty and the role is back to a plain user.
      await page.getByTestId('user-create-button').click();
      await expect(createDialog).toBeVisible();
      for (const field of ['username', 'email', 'password', 'credits', 'remark']) {
        await expect(page.getByTestId(`user-create-${field}`)).toHaveValue('');
      }
      await expect(page.getByTestId('user-create-role')).toContainText(text.userRole);
      await expect(page.getByTestId('user-create-role')).not.toContainText(text.adminRole);
      await page.keyboard.press('Escape');
      await expect(createDialog).toBeHidden();

      // Find them and open the credit dialog from their row.
      await searchUsers(page, data.username);
      const row = userRow(page, userId);
      await expect(row).toContainText(data.email);
      await page.getByTestId(`user-credits-${userId}`).click();
      const creditDialog = dialog(page, 'credit-modal');
      await expect(creditDialog).toBeVisible();
      await expect(creditDialog).toContainText(data.email);
      await expect(page.getByTestId('credit-operation').locator('input[value="add"]')).toBeChecked();
      await page.getByTestId('credit-amount').fill(String(ADDED));
      await expect(page.getByTestId('credit-preview')).toHaveText(text.preview);
      await page.getByTestId('credit-reason').fill(reason);
      const adjusted = page.waitForResponse(
        (r) => r.url().endsWith(`/api/admin/users/${userId}/credits`) && r.request().method() === 'POST',
      );
      await page.getByTestId('credit-submit').click();
      expect((await adjusted).status()).toBe(200);
      await expect(toast(page, text.added(data.username))).toBeVisible();
      await expect(creditDialog).toBeHidden();
      await expect(row.locator('td').filter({ hasText: new RegExp(`^${BALANCE}$`) })).toHaveCount(1);

      // The administrator's ledger of the user records the operation with its reason.
      await page.getByTestId(`user-detail-${userId}`).click();
      const drawer = dialog(page, 'user-detail-drawer');
      await expect(drawer).toBeVisible();
      await page.getByTestId('user-tab-credits').click();
      const ledgerLine = page
        .getByTestId('credit-ledger-table')
        .locator('tbody tr.ant-table-row')
        .filter({ hasText: reason });
      await expect(ledgerLine).toHaveCount(1);
      await expect(ledgerLine).toContainText(text.ledgerType);
      await expect(page.getByTestId('user-credit-stats')).toContainText(String(BALANCE));

      // The user, signed in elsewhere, sees the new balance and the ledger line.
      const context = await newContextIn(browser, language);
      try {
        const userPage = await context.newPage();
        await signInDirect(userPage, data.email, data.password);
        await expect(userPage.locator('html')).toHaveAttribute('lang', language);
        await expect(userPage.getByTestId('credits-remaining')).toContainText(String(BALANCE));

        await userPage.goto('/profile');
        await expect(userPage.getByTestId('profile-tab-credits')).toHaveText(text.historyTab);
        await userPage.getByTestId('profile-tab-credits').click();
        const history = userPage.getByTestId('credit-history-table').locator('tbody tr.ant-table-row');
        await expect(history).toHaveCount(2);
        const line = history.filter({ hasText: text.ledgerType });
        await expect(line).toHaveCount(1);
        await expect(line).toContainText(`+${ADDED}`);
        await expect(line).toContainText(String(BALANCE));
      } finally {
        await context.close();
      }
    });
  });
}
