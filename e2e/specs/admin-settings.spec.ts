import { expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language, newContextIn, signInAsSuperAdmin } from '../support/admin';
import { rememberSettings, seriousViolations } from '../support/site-settings';
import { fieldError, signInDirect, toast } from '../support/ui';
import { uniqueToken } from '../support/users';

// These change global settings of the one shared server: they run in the 'settings'
// project (after every other spec, one at a time) and put every setting back.
test.describe.configure({ mode: 'serial' });

const TABS = [
  'basic',
  'models',
  'modules',
  'credits',
  'security',
  'storage',
  'documents',
  'stats',
  'homepage',
] as const;
type Tab = (typeof TABS)[number];

const TEXT: Record<
  Language,
  {
    saved: string;
    closed: string;
    noAccount: string;
    tokenLifetime: string;
    readOnly: string;
    tabs: Record<Tab, string>;
  }
> = {
  'zh-CN': {
    saved: '设置已保存',
    closed: '注册功能暂时关闭',
    noAccount: '还没有账号？',
    tokenLifetime: '令牌有效期格式应如 12h、30m、7d',
    readOnly: '组管理员只能查看系统设置；如需修改，请联系超级管理员',
    tabs: {
      basic: '基础设置',
      models: 'AI 模型',
      modules: '模块',
      credits: '积分',
      security: '安全',
      storage: '存储',
      documents: '文档',
      stats: '统计',
      homepage: '自定义首页',
    },
  },
  'en-US': {
    saved: 'Settings saved',
    closed: 'Registration is temporarily closed',
    noAccount: 'No account yet?',
    tokenLifetime: 'Token lifetime must look like 12h, 30m or 7d',
    readOnly: 'Settings are read-only for group administrators; contact the super administrator to change them',
    tabs: {
      basic: 'Basic',
      models: 'AI models',
      modules: 'Modules',
      credits: 'Credits',
      security: 'Security',
      storage: 'Storage',
      documents: 'Documents',
      stats: 'Statistics',
      homepage: 'Custom homepage',
    },
  },
};

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`system settings (${language})`, () => {
    test.use({ locale: language });

    test('closing registration hides the register link from visitors; reopening brings it back', async ({
      page,
      browser,
      request,
    }) => {
      const restore = await rememberSettings(await AdminApi.superAdmin(request), { user: ['allow_register'] });
      const visitor = await newContextIn(browser, language);
      try {
        await signInAsSuperAdmin(page, null);
        await page.goto('/admin/settings');
        await expect(page.getByTestId('settings-tab-basic')).toHaveText(T.tabs.basic);
        const registration = page.getByTestId('settings-allow-register');
        await expect(registration).toHaveAttribute('aria-checked', 'true');
        await registration.click();
        await expect(page.getByTestId('settings-unsaved')).toBeVisible();
        await page.getByTestId('settings-save-basic').click();
        await expect(toast(page, T.saved)).toBeVisible();
        await expect(page.getByTestId('settings-unsaved')).toHaveCount(0);

        const guest = await visitor.newPage();
        await guest.goto('/login');
        await expect(guest.getByTestId('login-account')).toBeVisible();
        await expect(guest.getByTestId('register-link')).toHaveCount(0);
        await expect(guest.getByText(T.noAccount)).toHaveCount(0);
        await guest.goto('/register');
        await expect(toast(guest, T.closed)).toBeVisible();
        await expect(guest).toHaveURL(/\/login$/);
        await expect(guest.getByTestId('register-email')).toHaveCount(0);

        await expect(registration).toHaveAttribute('aria-checked', 'false');
        // The first save's notice gone, so the next one is told apart.
        await expect(toast(page, T.saved)).toHaveCount(0);
        await registration.click();
        await page.getByTestId('settings-save-basic').click();
        await expect(toast(page, T.saved)).toBeVisible();
        await guest.goto('/login');
        await expect(guest.getByTestId('register-link')).toBeVisible();
        await guest.getByTestId('register-link').click();
        await expect(guest).toHaveURL(/\/register$/);
        await expect(guest.getByTestId('register-email')).toBeVisible();
      } finally {
        await visitor.close();
        await restore();
      }
    });

    test('a malformed token lifetime is named on its field and nothing is saved', async ({ page, request }) => {
      const admin = await AdminApi.superAdmin(request);
      const restore = await rememberSettings(admin, { security: ['token_expires_in'] });
      try {
        await signInAsSuperAdmin(page, null);
        await page.goto('/admin/settings?tab=security');
        const lifetime = page.getByTestId('settings-token-expires-in');
        const original = await lifetime.inputValue();
        let saves = 0;
        page.on('request', (r) => {
          if (r.method() === 'PUT' && r.url().endsWith('/api/admin/settings')) saves += 1;
        });
        await lifetime.fill('abc');
        await page.getByTestId('settings-save-security').click();
        await expect(fieldError(page, T.tokenLifetime)).toBeVisible();
        expect(saves).toBe(0);

        // The server refuses it too, whoever sends it.
        const refused = await admin.raw('PUT', '/admin/settings', { security: { token_expires_in: 'abc' } });
        expect(refused.status()).toBe(400);

        // Unsaved, leaving asks first: through the menu (stay, then leave) and by reloading.
        await page.getByTestId('settings-tab-basic').click();
        await expect(page).toHaveURL(/tab=basic/);
        await page.getByTestId('settings-tab-security').click();
        await expect(lifetime).toHaveValue('abc');
        await page.getByTestId('app-sider').getByTestId('menu-dashboard').click();
        await page.getByTestId('settings-leave-cancel').click();
        await expect(page).toHaveURL(/\/admin\/settings/);
        await expect(lifetime).toHaveValue('abc');
        const asked = page.waitForEvent('dialog');
        // Staying cancels the reload, which then never finishes: its promise is left to settle.
        void page.reload().catch(() => undefined);
        const unload = await asked;
        expect(unload.type()).toBe('beforeunload');
        await unload.dismiss();
        await expect(lifetime).toHaveValue('abc');

        await page.getByTestId('settings-reset-security').click();
        await expect(lifetime).toHaveValue(original);
        // Nothing unsaved: the menu leaves at once.
        await page.getByTestId('app-sider').getByTestId('menu-dashboard').click();
        await expect(page).toHaveURL(/\/dashboard$/);
      } finally {
        await restore();
      }
    });

    test('a group administrator reads the settings without being able to change them', async ({ page, request }) => {
      const superAdmin = await AdminApi.superAdmin(request);
      const group = await superAdmin.createGroup('setro');
      const groupAdmin = await superAdmin.createUser({ prefix: 'setro', role: 'admin', groupId: group.id });

      await signInDirect(page, groupAdmin.email, groupAdmin.password, null);
      await page.goto('/admin/settings');
      await expect(page.getByTestId('settings-read-only')).toHaveText(T.readOnly);
      await expect(page.getByTestId('settings-site-name')).toBeDisabled();
      await expect(page.getByTestId('settings-allow-register')).toBeDisabled();
      await expect(page.getByTestId('settings-default-credits')).toBeDisabled();
      await expect(page.getByTestId('settings-logo-upload')).toHaveCount(0);
      await expect(page.getByTestId('settings-save-basic')).toHaveCount(0);

      await page.getByTestId('settings-tab-security').click();
      await expect(page.getByTestId('settings-token-expires-in')).toBeDisabled();
      await expect(page.getByTestId('settings-rate-limit')).toBeDisabled();
      await expect(page.getByTestId('settings-save-security')).toHaveCount(0);

      await page.getByTestId('settings-tab-homepage').click();
      await expect(page.getByTestId('homepage-html')).toBeDisabled();
      await expect(page.getByTestId('settings-save-homepage')).toHaveCount(0);
      await expect(page.getByTestId('homepage-template')).toHaveCount(0);
    });

    test('every settings tab is free of serious accessibility problems', async ({ page, request, baseURL }) => {
      // Each axe analysis takes a few seconds; eight tabs.
      test.slow();
      // The tabs as an administrator sees them in use: a module in the list (one only a
      // fresh group sees, so no other menu changes; removed again at the end).
      const superAdmin = await AdminApi.superAdmin(request);
      const group = await superAdmin.createGroup('seta11y');
      const created = await superAdmin.raw('POST', '/admin/modules', {
        name: `a11y-${uniqueToken()}`,
        display_name: 'A11y module',
        module_url: `${baseURL}/api/health`,
        group_ids: [group.id],
      });
      expect(created.status(), await created.text()).toBe(201);
      const moduleId = ((await created.json()) as { data: { id: number } }).data.id;
      try {
        await signInAsSuperAdmin(page, null);
        await page.goto('/admin/settings');
        for (const tab of TABS) {
          await page.getByTestId(`settings-tab-${tab}`).click();
          await expect(page.getByTestId(`settings-tab-${tab}`)).toHaveText(T.tabs[tab]);
          const panel = page.getByRole('tabpanel').filter({ visible: true });
          await expect(panel).toBeVisible();
          // The tab as it settles, not while its data is still arriving.
          await expect(panel.locator('.ant-spin-spinning, .ant-skeleton')).toHaveCount(0);
          expect(await seriousViolations(page), tab).toEqual([]);
        }
      } finally {
        await superAdmin.raw('DELETE', `/admin/modules/${moduleId}`);
      }
    });
  });
}
