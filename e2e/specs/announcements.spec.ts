import { type Page, expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language, newContextIn, signInAsSuperAdmin } from '../support/admin';
import { rememberSystemAnnouncement, seriousViolations } from '../support/site-settings';
import { signInDirect, toast } from '../support/ui';
import { uniqueToken } from '../support/users';

// The system announcement is shown to every user: these run in the 'settings' project
// (after every other spec, one at a time) and put the announcement back.
test.describe.configure({ mode: 'serial' });

const TEXT: Record<Language, { preview: string; systemSaved: string; groupSaved: string; markRead: string }> = {
  'zh-CN': { preview: '预览', systemSaved: '系统公告已更新', groupSaved: '组织公告已更新', markRead: '全部标为已读' },
  'en-US': {
    preview: 'Preview',
    systemSaved: 'System announcement updated',
    groupSaved: 'Organization announcement updated',
    markRead: 'Mark all as read',
  },
};

/**
 * The unread count the header bell announces (its label names it; the badge's number
 * may still be fading out when the count drops to zero).
 */
async function bellCount(page: Page): Promise<number> {
  const label = (await page.getByTestId('notification-bell').getAttribute('aria-label')) ?? '';
  return Number(/\d+/.exec(label)?.[0] ?? '0');
}

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`announcements (${language})`, () => {
    test.use({ locale: language });

    test('the super administrator writes the system announcement; a user reads it on the dashboard and in the bell', async ({
      page,
      browser,
      request,
    }) => {
      test.slow();
      const superAdmin = await AdminApi.superAdmin(request);
      const restore = await rememberSystemAnnouncement(superAdmin);
      const user = await superAdmin.createUser({ prefix: 'ann' });
      const marker = `Notice ${uniqueToken()}`;
      const reader = await newContextIn(browser, language);
      try {
        await signInAsSuperAdmin(page);
        await page.getByTestId('announcement-system-edit').click();
        const content = page.getByTestId('announcement-system-content');
        await expect(content).toBeVisible();
        // Writing into an empty announcement starts with it switched on.
        await expect(page.getByTestId('announcement-system-enabled')).toHaveAttribute('aria-checked', 'true');
        await content.fill(`## ${marker}\n\nPlease **save** your work.\n\n<script>window.__announced = true</script>`);

        // The preview renders markdown; the script is shown as text and never runs.
        await page.getByTestId('announcement-system-mode').getByText(T.preview).click();
        const preview = page.getByTestId('announcement-system-preview');
        await expect(preview.getByRole('heading', { name: marker })).toBeVisible();
        await expect(preview.locator('strong')).toHaveText('save');
        await expect(preview).toContainText('<script>window.__announced = true</script>');
        await expect(preview.locator('script')).toHaveCount(0);
        expect(await page.evaluate(() => (window as unknown as { __announced?: boolean }).__announced)).toBeUndefined();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByTestId('announcement-system-save').click();
        await expect(toast(page, T.systemSaved)).toBeVisible();
        await expect(
          page.getByTestId('announcement-system-content').getByRole('heading', { name: marker }),
        ).toBeVisible();
        await expect(page.getByTestId('announcement-system-status')).toBeVisible();
        // Nobody is told about their own announcement.
        await expect.poll(() => bellCount(page)).toBe(0);

        // A plain user: the announcement on the dashboard, without an edit button, and in the bell.
        const userPage = await reader.newPage();
        await signInDirect(userPage, user.email, user.password);
        const card = userPage.getByTestId('announcement-system');
        await expect(card.getByRole('heading', { name: marker })).toBeVisible();
        await expect(card.locator('script')).toHaveCount(0);
        await expect(userPage.getByTestId('announcement-system-edit')).toHaveCount(0);
        expect(await seriousViolations(userPage)).toEqual([]);

        await expect.poll(() => bellCount(userPage)).toBe(1);
        await userPage.getByTestId('notification-bell').click();
        await expect(userPage.getByTestId('notification-system')).toContainText(marker);
        await userPage.getByTestId('notification-mark-read').click();
        await expect(userPage.getByText(T.markRead)).toHaveCount(0);
        await expect(userPage.getByTestId('notification-empty')).toBeVisible();
        await expect.poll(() => bellCount(userPage)).toBe(0);

        // Read stays read after a reload.
        await userPage.reload();
        await expect(userPage.getByTestId('announcement-system')).toBeVisible();
        await expect.poll(() => bellCount(userPage)).toBe(0);
      } finally {
        await reader.close();
        await restore();
      }
    });

    test("a group administrator writes their group's announcement; its members read it", async ({
      page,
      browser,
      request,
    }) => {
      // Three people sign in one after another.
      test.slow();
      const superAdmin = await AdminApi.superAdmin(request);
      const group = await superAdmin.createGroup('anng');
      const groupAdmin = await superAdmin.createUser({ prefix: 'anga', role: 'admin', groupId: group.id });
      const member = await superAdmin.createUser({ prefix: 'angm', groupId: group.id });
      const outsider = await superAdmin.createUser({ prefix: 'ango' });
      const marker = `Team ${uniqueToken()}`;

      await signInDirect(page, groupAdmin.email, groupAdmin.password);
      // The system announcement is not theirs to change.
      await expect(page.getByTestId('announcement-system-edit')).toHaveCount(0);
      await page.getByTestId('announcement-group-edit').click();
      await page.getByTestId('announcement-group-content').fill(`Meeting moved: **${marker}**`);
      await page.getByTestId('announcement-group-save').click();
      await expect(toast(page, T.groupSaved)).toBeVisible();
      await expect(page.getByTestId('announcement-group-content')).toContainText(marker);

      const memberContext = await newContextIn(browser, language);
      try {
        const memberPage = await memberContext.newPage();
        await signInDirect(memberPage, member.email, member.password);
        await expect(memberPage.getByTestId('announcement-group-content').locator('strong')).toHaveText(marker);
        await expect(memberPage.getByTestId('announcement-group-edit')).toHaveCount(0);
        await memberPage.getByTestId('notification-bell').click();
        await expect(memberPage.getByTestId('notification-group')).toContainText(marker);
      } finally {
        await memberContext.close();
      }

      // Another group's member sees nothing of it.
      const outsiderContext = await newContextIn(browser, language);
      try {
        const outsiderPage = await outsiderContext.newPage();
        const answered = outsiderPage.waitForResponse((r) => r.url().endsWith('/api/stats/my-group-announcement'));
        await signInDirect(outsiderPage, outsider.email, outsider.password);
        expect((await answered).ok()).toBe(true);
        await expect(outsiderPage.getByTestId('announcement-group')).toHaveCount(0);
      } finally {
        await outsiderContext.close();
      }
    });
  });
}
