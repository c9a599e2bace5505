import { type Page, expect, test } from '@playwright/test';
import {
  AdminApi,
  type Language,
  LANGUAGES,
  dialog,
  newContextIn,
  openAdminPage,
  searchUsers,
  signInAsSuperAdmin,
} from '../support/admin';
import { ChatApi, openChat, typeAndSend } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { seriousViolations } from '../support/site-settings';
import { signInDirect, toast } from '../support/ui';

/** Three turns of the default model (10 credits each) fill the cap; the fourth is refused. */
const CAP = 3 * DEFAULT_MODEL.credits_per_chat;

interface Texts {
  tab: string;
  webhookMissing: string;
  saved: string;
  composer: (used: number) => RegExp;
  dashboardUsed: (used: number) => string;
  reached: RegExp;
  alertTitle: string;
}

const TEXTS: Record<Language, Texts> = {
  'zh-CN': {
    tab: '用量上限',
    webhookMissing: 'Webhook 提醒需要填写 Webhook 地址',
    saved: '用量上限已保存',
    composer: (used) => new RegExp(`每日上限 ${used} / ${CAP} · \\d\\d:\\d\\d 重置`),
    dashboardUsed: (used) => `已用 ${used} / ${CAP} 积分`,
    reached: new RegExp(`已达到每日上限：已用 ${CAP} / ${CAP} 积分。\\d\\d:\\d\\d 重置后可继续对话。`),
    alertTitle: '用量已达上限的 80%',
  },
  'en-US': {
    tab: 'Usage caps',
    webhookMissing: 'Webhook alerts need a webhook address',
    saved: 'Usage caps saved',
    composer: (used) => new RegExp(`Daily cap ${used} / ${CAP} · resets \\d\\d:\\d\\d`),
    dashboardUsed: (used) => `${used} of ${CAP} credits used`,
    reached: new RegExp(
      `Daily cap reached: ${CAP} of ${CAP} credits used\\. You can chat again after it resets at \\d\\d:\\d\\d\\.`,
    ),
    alertTitle: 'Usage at 80% of a cap',
  },
};

const PHONE = { width: 375, height: 740 };

/** The page has nothing wider than the screen (no sideways scrolling at 375 px). */
async function fitsWidth(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

for (const language of LANGUAGES) {
  test.describe(`usage caps (${language})`, () => {
    test.use({ locale: language });
    // An administrator's and a user's browser context, a dozen turns: the slow-test budget.
    test.slow();

    test('an administrator caps a user; the user sees it, is refused with its reset time, and is alerted once', async ({
      page,
      browser,
    }, testInfo) => {
      const text = TEXTS[language];
      const admin = await AdminApi.superAdmin(page.request);
      const user = await admin.createUser({ prefix: 'cap', credits: 1000 });
      const shot = (p: Page, name: string) => p.screenshot({ path: testInfo.outputPath(`${name}-${language}.png`) });

      // The administrator sets a daily cap with an 80 % alert in the user's drawer.
      await signInAsSuperAdmin(page);
      await openAdminPage(page, 'users');
      await searchUsers(page, user.username);
      await page.getByTestId(`user-detail-${user.id}`).click();
      const drawer = dialog(page, 'user-detail-drawer');
      await expect(drawer).toBeVisible();
      await page.getByTestId('user-tab-caps').click();
      await expect(page.getByTestId('user-tab-caps')).toHaveText(text.tab);
      await page.getByTestId('cap-add').click();
      await page.getByTestId('cap-credits-0').fill(String(CAP));
      await page.getByTestId('alert-add').click();
      // A webhook alert without an address: the server's reason shows on the address field.
      await page.getByTestId('alert-channels-0').locator('input[value="webhook"]').check();
      const refused = page.waitForResponse((r) => r.url().endsWith(`/api/admin/users/${user.id}/caps`));
      await page.getByTestId('caps-save').click();
      expect((await refused).status()).toBe(400);
      const webhookField = page.locator('.ant-form-item').filter({ has: page.getByTestId('caps-webhook-url') });
      await expect(webhookField.locator('.ant-form-item-explain')).toHaveText(text.webhookMissing);
      await page.getByTestId('alert-channels-0').locator('input[value="webhook"]').uncheck();
      const saved = page.waitForResponse((r) => r.url().endsWith(`/api/admin/users/${user.id}/caps`));
      await page.getByTestId('caps-save').click();
      expect((await saved).status()).toBe(200);
      await expect(toast(page, text.saved)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, 'caps-editor');

      // The user: the cap on the dashboard …
      const context = await newContextIn(browser, language);
      const own = await context.newPage();
      await signInDirect(own, user.email, user.password, '/dashboard');
      await expect(own.getByTestId('caps-card')).toBeVisible();
      await expect(own.getByTestId('cap-day-used')).toHaveText(text.dashboardUsed(0));
      await expect(own.getByTestId('cap-day-resets')).toContainText(/\d\d:\d\d/);
      expect(await seriousViolations(own)).toEqual([]);
      await shot(own, 'caps-dashboard');

      // … and in the composer, as they chat up to it.
      const api = await ChatApi.login(own.request, user);
      const conv = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: `Capped ${language}` });
      await api.send(conv.id, 'first');
      await api.send(conv.id, 'second');
      await openChat(own, user, conv.id);
      await expect(own.getByTestId('chat-cap')).toHaveText(text.composer(2 * DEFAULT_MODEL.credits_per_chat));
      await typeAndSend(own, 'third');
      // The list is virtualised (a tall answer hides the others): the count is the server's.
      await expect(own.getByTestId('chat-cap')).toHaveText(text.composer(CAP));
      expect(await api.messages(conv.id)).toHaveLength(6);

      // The fourth turn would pass the cap: refused, saying which cap and when it resets.
      await typeAndSend(own, 'fourth');
      await expect(own.getByTestId('cap-reached')).toHaveText(text.reached);
      await expect(toast(own, text.reached)).toBeVisible();
      expect(await api.messages(conv.id)).toHaveLength(6);
      await expect(own.getByTestId('chat-input')).toHaveValue('fourth');
      expect(await seriousViolations(own)).toEqual([]);
      await shot(own, 'caps-refused');

      // The 80 % alert is in the bell once, however many turns passed it; reading it clears the count.
      const bell = own.getByTestId('notification-bell');
      const count = own.getByTestId('notification-count');
      await expect(count).toContainText('1');
      await bell.click();
      const alerts = own.getByTestId('notice-cap_alert');
      await expect(alerts).toHaveCount(1);
      await expect(alerts).toContainText(text.alertTitle);
      await expect(alerts).toHaveAttribute('data-unread', 'true');
      expect(await seriousViolations(own)).toEqual([]);
      await shot(own, 'caps-bell');
      await alerts.getByRole('button').click();
      await expect(alerts).toHaveAttribute('data-unread', 'false');
      await expect(count.locator('.ant-badge-count')).toHaveCount(0);
      await own.keyboard.press('Escape');

      // On a phone the composer's cap line and the refusal fit the width.
      await own.setViewportSize(PHONE);
      await expect(own.getByTestId('chat-cap')).toBeVisible();
      await fitsWidth(own);
      await shot(own, 'caps-phone-chat');
      await own.goto('/dashboard');
      await expect(own.getByTestId('caps-card')).toBeVisible();
      await fitsWidth(own);
      await shot(own, 'caps-phone-dashboard');
      await context.close();
    });
  });
}
