import fs from 'node:fs';
import { type Download, type Page, expect, test } from '@playwright/test';
import { unzipSync, strFromU8 } from 'fflate';
import { AdminApi, LANGUAGES, dialog, openAdminPage, searchUsers, signInAsSuperAdmin } from '../support/admin';
import { ChatApi } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { seriousViolations } from '../support/site-settings';
import { signInDirect, toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

const TEXT = {
  'zh-CN': { done: '已下载你的数据', exported: (name: string) => `已导出 ${name} 的数据` },
  'en-US': { done: 'Your data was downloaded', exported: (name: string) => `Exported the data of ${name}` },
} as const;

/** The archive's entries, name → text. */
async function entriesOf(download: Download): Promise<Record<string, string>> {
  const files = unzipSync(new Uint8Array(fs.readFileSync(await download.path())));
  return Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

/** Clicks `trigger` and answers the file it downloads. */
async function downloadOf(page: Page, trigger: () => Promise<void>): Promise<Download> {
  const downloading = page.waitForEvent('download');
  await trigger();
  return downloading;
}

for (const language of LANGUAGES) {
  test.describe(`data export (${language})`, () => {
    test.use({ locale: language });
    test.slow();

    test('a person downloads everything of theirs and nothing of others; a super administrator exports it with a reason', async ({
      page,
      request,
    }) => {
      const text = TEXT[language];
      const marker = uniqueToken();
      const owner = await registerViaApi(request, { prefix: 'exp' });
      const api = await ChatApi.login(request, owner);
      const conv = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: `Export ${marker}` });
      await api.send(conv.id, `Mine ${marker}`);
      const other = await registerViaApi(request, { prefix: 'expo' });
      const otherApi = await ChatApi.login(request, other);
      const otherConv = await otherApi.createConversation({ model_name: DEFAULT_MODEL.name });
      await otherApi.send(otherConv.id, `Theirs ${marker}`);

      // The person's own copy, from the profile.
      await signInDirect(page, owner.email, owner.password, '/profile');
      const mine = await downloadOf(page, () => page.getByTestId('download-my-data').click());
      expect(mine.suggestedFilename()).toMatch(/^my-data-\d{8}\.zip$/);
      await expect(toast(page, text.done)).toBeVisible();
      const entries = await entriesOf(mine);
      expect(Object.keys(entries)).toEqual(
        expect.arrayContaining([
          'profile.json',
          'ledger.csv',
          `conversations/${conv.id}.json`,
          `conversations/${conv.id}.md`,
        ]),
      );
      expect(entries['profile.json']).toContain(owner.email);
      expect(entries['profile.json']).not.toMatch(/password/i);
      expect(entries[`conversations/${conv.id}.md`]).toContain(`Mine ${marker}`);
      expect(entries[`conversations/${conv.id}.json`]).toContain(`Echo: Mine ${marker}`);
      const everything = Object.values(entries).join('\n');
      expect(everything).not.toContain(`Theirs ${marker}`);
      expect(everything).not.toContain(other.email);
      expect(await seriousViolations(page)).toEqual([]);

      // A super administrator takes the same copy from the user drawer, giving a reason.
      await signInAsSuperAdmin(page, null);
      await openAdminPage(page, 'users');
      await searchUsers(page, owner.username);
      await page.getByTestId(`user-detail-${owner.id}`).click();
      await expect(dialog(page, 'user-detail-drawer')).toBeVisible();
      await page.getByTestId('user-tab-data').click();
      const reason = `Subject access request ${marker}`;
      await page.getByTestId('user-export-reason').fill(reason);
      expect(await seriousViolations(page)).toEqual([]);
      const theirs = await downloadOf(page, () => page.getByTestId('user-export-submit').click());
      expect(theirs.suggestedFilename()).toMatch(new RegExp(`^user-${owner.id}-data-\\d{8}\\.zip$`));
      await expect(toast(page, text.exported(owner.username))).toBeVisible();
      expect(Object.keys(await entriesOf(theirs))).toContain(`conversations/${conv.id}.md`);

      // The audit log keeps who exported whose data, and why.
      const admin = await AdminApi.superAdmin(request);
      const audit = await admin.raw('GET', `/admin/audit-logs?action=user.data_export&limit=20`);
      expect(audit.status()).toBe(200);
      expect(await audit.text()).toContain(reason);
    });
  });
}
