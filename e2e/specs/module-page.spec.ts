import { expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language } from '../support/admin';
import { seriousViolations } from '../support/site-settings';
import { signInDirect } from '../support/ui';
import { uniqueToken } from '../support/users';

const TEXT: Record<Language, { notFound: string; openInNewTab: string }> = {
  'zh-CN': { notFound: '模块不存在', openInNewTab: '在新标签页中打开' },
  'en-US': { notFound: 'Module not found', openInNewTab: 'Open in new tab' },
};

interface CreatedModule {
  id: number;
  name: string;
}

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`module page (${language})`, () => {
    test.use({ locale: language });

    test('a framed module fills the page; a new-tab module opens its own tab; an unknown one is not found', async ({
      page,
      request,
      baseURL,
    }) => {
      test.slow();
      const superAdmin = await AdminApi.superAdmin(request);
      // Modules only for a fresh group, so no other spec's menu changes.
      const group = await superAdmin.createGroup('modp');
      const user = await superAdmin.createUser({ prefix: 'modp', groupId: group.id });
      const token = uniqueToken();
      const create = async (body: Record<string, unknown>): Promise<CreatedModule> => {
        const res = await superAdmin.raw('POST', '/admin/modules', { ...body, group_ids: [group.id] });
        expect(res.status(), await res.text()).toBe(201);
        return ((await res.json()) as { data: CreatedModule }).data;
      };
      const framed = await create({
        name: `frame-${token}`,
        display_name: `Frame ${token}`,
        module_url: `${baseURL}/api/health?module=frame`,
        open_mode: 'iframe',
      });
      const tabbed = await create({
        name: `tab-${token}`,
        display_name: `Tab ${token}`,
        module_url: `${baseURL}/api/health?module=tab`,
        open_mode: 'new_tab',
      });
      try {
        await signInDirect(page, user.email, user.password);
        await page.getByTestId('app-sider').getByTestId(`menu-module-${framed.name}`).click();
        await expect(page).toHaveURL(new RegExp(`/module/${framed.name}$`));
        const frame = page.getByTestId('module-frame');
        await expect(frame).toHaveAttribute('title', `Frame ${token}`);
        await expect(frame).toHaveAttribute(
          'sandbox',
          'allow-scripts allow-forms allow-same-origin allow-popups allow-downloads',
        );
        await expect(frame).toHaveAttribute('src', /module=frame/);
        await expect(page.getByTestId('module-loading')).toHaveCount(0);
        await expect(page.getByTestId('module-open-new-tab')).toHaveText(T.openInNewTab);
        expect(await seriousViolations(page)).toEqual([]);

        // The menu opens a new-tab module in a tab of its own and stays where it is.
        const popup = page.waitForEvent('popup');
        await page.getByTestId('app-sider').getByTestId(`menu-module-${tabbed.name}`).click();
        const opened = await popup;
        await expect(opened).toHaveURL(/module=tab/);
        await opened.close();
        await expect(page).toHaveURL(new RegExp(`/module/${framed.name}$`));

        // Visited directly, a new-tab module offers the button.
        await page.goto(`/module/${tabbed.name}`);
        await expect(page.getByTestId('module-new-tab')).toBeVisible();
        const again = page.waitForEvent('popup');
        await page.getByTestId('module-open-new-tab').click();
        await expect(await again).toHaveURL(/module=tab/);

        await page.goto(`/module/missing-${token}`);
        await expect(page.getByTestId('module-not-found')).toContainText(T.notFound);
        await page.getByTestId('module-back').click();
        await expect(page).toHaveURL(/\/dashboard$/);
      } finally {
        await superAdmin.raw('DELETE', `/admin/modules/${framed.id}`);
        await superAdmin.raw('DELETE', `/admin/modules/${tabbed.id}`);
      }
    });
  });
}
