import http from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import {
  AdminApi,
  type Language,
  LANGUAGES,
  dialog,
  newContextIn,
  popconfirmOk,
  signInAsSuperAdmin,
} from '../support/admin';
import { toast } from '../support/ui';
import { uniqueToken } from '../support/users';

/**
 * The modules tab of the system settings: modules added there appear in the side menu at
 * once and open from it, framed in the page or in a new tab; health checks, switching off
 * and deleting. A tiny local web app stands in for the organisation's module.
 */

const MODULE_HEADING = 'Hello from the module';

let moduleServer: http.Server;
let moduleOrigin = '';

test.beforeAll(async () => {
  moduleServer = http.createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Module app</title><h1>${MODULE_HEADING}</h1></html>`);
  });
  await new Promise<void>((resolve) => moduleServer.listen(0, '127.0.0.1', resolve));
  moduleOrigin = `http://127.0.0.1:${(moduleServer.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => moduleServer.close(() => resolve()));
});

interface Texts {
  tab: string;
  newTab: string;
  created: (name: string) => string;
  confirmDelete: (name: string) => string;
  deleted: (name: string) => string;
  disabled: (name: string) => string;
  healthUp: string;
}

const TEXTS: Record<Language, Texts> = {
  'zh-CN': {
    tab: '模块',
    newTab: '新标签页',
    created: (name) => `已添加模块 ${name}`,
    confirmDelete: (name) => `删除模块 ${name}？`,
    deleted: (name) => `已删除模块 ${name}`,
    disabled: (name) => `${name} 已从菜单中隐藏`,
    healthUp: '正常',
  },
  'en-US': {
    tab: 'Modules',
    newTab: 'New tab',
    created: (name) => `Module ${name} added`,
    confirmDelete: (name) => `Delete the module ${name}?`,
    deleted: (name) => `Module ${name} deleted`,
    disabled: (name) => `${name} is hidden from the menu`,
    healthUp: 'Up',
  },
};

async function openModulesTab(page: Page, language: Language): Promise<void> {
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: TEXTS[language].tab, exact: true }).click();
  await expect(page.getByTestId('modules-table')).toBeVisible();
}

/** Fills and saves the module form; answers the new module's id. */
async function addModule(
  page: Page,
  language: Language,
  fields: { name: string; displayName: string; url: string; newTab?: boolean; healthUrl?: string },
): Promise<number> {
  await page.getByTestId('module-create-button').click();
  const form = dialog(page, 'module-form-modal');
  await expect(form).toBeVisible();
  await page.getByTestId('module-form-name').fill(fields.name);
  await page.getByTestId('module-form-display-name').fill(fields.displayName);
  await page.getByTestId('module-form-url').fill(fields.url);
  if (fields.newTab)
    await page.getByTestId('module-form-open-mode').getByRole('radio', { name: TEXTS[language].newTab }).check();
  if (fields.healthUrl) await page.getByTestId('module-form-health-url').fill(fields.healthUrl);
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/admin/modules') && r.request().method() === 'POST',
  );
  await page.getByTestId('module-form-submit').click();
  const res = await created;
  expect(res.status(), await res.text()).toBe(201);
  await expect(toast(page, TEXTS[language].created(fields.displayName))).toBeVisible();
  await expect(form).toBeHidden();
  return ((await res.json()) as { data: { id: number } }).data.id;
}

async function deleteModule(page: Page, language: Language, id: number, displayName: string): Promise<void> {
  await page.getByTestId(`module-delete-${id}`).click();
  const deleted = page.waitForResponse(
    (r) => r.url().endsWith(`/api/admin/modules/${id}`) && r.request().method() === 'DELETE',
  );
  await popconfirmOk(page, TEXTS[language].confirmDelete(displayName)).click();
  expect((await deleted).status()).toBe(200);
  await expect(toast(page, TEXTS[language].deleted(displayName))).toBeVisible();
}

for (const language of LANGUAGES) {
  test.describe(`admin modules (${language})`, () => {
    test.use({ locale: language });
    test.slow();

    test('modules added in settings appear in the side menu and open in a new tab or framed in the page', async ({
      page,
    }) => {
      const text = TEXTS[language];
      const token = uniqueToken();
      const tabModule = { name: `nt-${token}`, displayName: `New tab ${token}`, url: `${moduleOrigin}/tab-app` };
      const framed = {
        name: `if-${token}`,
        displayName: `Framed ${token}`,
        url: `${moduleOrigin}/frame-app`,
        healthUrl: `${moduleOrigin}/health`,
      };

      await signInAsSuperAdmin(page);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await openModulesTab(page, language);

      // New-tab mode: the menu entry opens the module's address in a tab of its own.
      const tabId = await addModule(page, language, { ...tabModule, newTab: true });
      const tabEntry = page.getByTestId(`menu-module-${tabModule.name}`);
      await expect(tabEntry).toBeVisible();
      const popup = page.waitForEvent('popup');
      await tabEntry.click();
      const opened = await popup;
      await expect(opened).toHaveURL(new RegExp(`^${tabModule.url}`));
      await expect(opened.getByRole('heading', { name: MODULE_HEADING })).toBeVisible();
      await opened.close();
      await expect(page).toHaveURL(/\/admin\/settings/);

      // Iframe mode: the menu entry opens /module/{name} with the module framed inside.
      const framedId = await addModule(page, language, framed);
      const frameEntry = page.getByTestId(`menu-module-${framed.name}`);
      await expect(frameEntry).toBeVisible();
      await frameEntry.click();
      await expect(page).toHaveURL(new RegExp(`/module/${framed.name}$`));
      const frame = page.locator(`iframe[title="${framed.displayName}"]`);
      await expect(frame).toBeVisible();
      await expect(frame).toHaveAttribute('src', new RegExp(`^${framed.url}`));
      await expect(page.frameLocator(`iframe[title="${framed.displayName}"]`).getByRole('heading')).toHaveText(
        MODULE_HEADING,
      );

      // Back in settings: "check now" reaches the health address; switching off hides the entry.
      await openModulesTab(page, language);
      await page.getByTestId(`module-check-${framedId}`).click();
      await expect(page.getByTestId(`module-health-${framedId}`)).toHaveAttribute('data-status', 'up');
      await expect(page.getByTestId(`module-health-${framedId}`)).toContainText(text.healthUp);
      await page.getByTestId(`module-active-${framedId}`).click();
      await expect(toast(page, text.disabled(framed.displayName))).toBeVisible();
      await expect(frameEntry).toHaveCount(0);
      await expect(tabEntry).toBeVisible();

      // Deleting takes the module out of the list and the menu.
      await deleteModule(page, language, tabId, tabModule.displayName);
      await deleteModule(page, language, framedId, framed.displayName);
      await expect(tabEntry).toHaveCount(0);
      await expect(page.getByTestId('modules-table')).not.toContainText(token);
    });
  });
}

test.describe('admin modules: form checks, accessibility, phone', () => {
  test('the form refuses a module id with capitals and an address that is not http(s)', async ({ page }) => {
    await signInAsSuperAdmin(page, null);
    await openModulesTab(page, 'zh-CN');
    await page.getByTestId('module-create-button').click();
    await page.getByTestId('module-form-name').fill('Bad Name');
    await page.getByTestId('module-form-display-name').fill('Bad');
    await page.getByTestId('module-form-url').fill('javascript:alert(1)');
    let posted = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/admin/modules') && r.method() === 'POST') posted = true;
    });
    await page.getByTestId('module-form-submit').click();
    const errors = dialog(page, 'module-form-modal').locator('.ant-form-item-explain-error');
    await expect(errors).toHaveCount(2);
    await expect(errors.first()).toContainText('模块标识');
    await expect(errors.last()).toContainText('http://');
    expect(posted).toBe(false);
  });

  test('a module without an icon shows its letter in the menu; the picker swaps it for an icon and back', async ({
    page,
    request,
  }) => {
    const superAdmin = await AdminApi.superAdmin(request);
    const token = uniqueToken();
    const name = `ic-${token}`;
    const res = await superAdmin.raw('POST', '/admin/modules', {
      name,
      display_name: `Zeta ${token}`,
      module_url: `${moduleOrigin}/icons`,
    });
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()) as { data: { id: number } }).data.id;
    try {
      await signInAsSuperAdmin(page, null);
      await openModulesTab(page, 'zh-CN');
      const entry = page.getByTestId(`menu-module-${name}`);
      const letter = entry.getByTestId('module-letter-icon');
      await expect(letter).toHaveText('Z');
      await expect(entry.locator('.anticon-api')).toHaveCount(0);

      /** Opens the form, picks the option whose text matches, saves, and waits for the answer. */
      const pickIcon = async (option: string | RegExp) => {
        await page.getByTestId(`module-edit-${id}`).click();
        const form = dialog(page, 'module-form-modal');
        await expect(form).toBeVisible();
        await page.getByTestId('module-form-icon').click();
        await page
          .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
          .filter({ hasText: option })
          .click();
        const saved = page.waitForResponse(
          (r) => r.url().endsWith(`/api/admin/modules/${id}`) && r.request().method() === 'PUT',
        );
        await page.getByTestId('module-form-submit').click();
        const answer = await saved;
        expect(answer.status(), await answer.text()).toBe(200);
        await expect(form).toBeHidden();
        return ((await answer.json()) as { data: { menu_icon: string | null } }).data.menu_icon;
      };

      expect(await pickIcon(/^Api$/)).toBe('ApiOutlined');
      await expect(entry.locator('.anticon-api')).toBeVisible();
      await expect(letter).toHaveCount(0);

      // The letter option puts the letter back.
      expect(await pickIcon('名称首字（默认）')).toBeFalsy();
      await expect(letter).toHaveText('Z');
      await expect(entry.locator('.anticon-api')).toHaveCount(0);
    } finally {
      await superAdmin.raw('DELETE', `/admin/modules/${id}`);
    }
  });

  for (const language of LANGUAGES) {
    test(`the modules tab and its form have no serious accessibility violations (${language})`, async ({
      browser,
      request,
    }) => {
      test.slow();
      const superAdmin = await AdminApi.superAdmin(request);
      const token = uniqueToken();
      const res = await superAdmin.raw('POST', '/admin/modules', {
        name: `a11y-${token}`,
        display_name: `A11y ${token}`,
        module_url: `${moduleOrigin}/a11y`,
        health_check_url: `${moduleOrigin}/health`,
        auth_mode: 'signed_token',
      });
      expect(res.status(), await res.text()).toBe(201);
      const id = ((await res.json()) as { data: { id: number } }).data.id;
      const context = await newContextIn(browser, language);
      try {
        const page = await context.newPage();
        await signInAsSuperAdmin(page, null);
        await openModulesTab(page, language);
        await expect(page.getByTestId(`module-health-${id}`)).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByTestId(`module-edit-${id}`).click();
        await expect(dialog(page, 'module-form-modal')).toBeVisible();
        await expect(page.getByTestId('module-form-name')).toHaveValue(`a11y-${token}`);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
        await superAdmin.raw('DELETE', `/admin/modules/${id}`);
      }
    });
  }

  test('on a phone the table scrolls sideways inside itself and the form fits the screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAsSuperAdmin(page, null);
    await openModulesTab(page, 'zh-CN');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByTestId('module-create-button').click();
    const form = dialog(page, 'module-form-modal');
    await expect(form).toBeVisible();
    for (const target of [form, page.getByTestId('module-form-url'), page.getByTestId('module-form-submit')]) {
      await target.scrollIntoViewIfNeeded();
      const box = await target.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375.5).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

/** Serious and critical WCAG 2 A/AA violations, the shared header and sidebar left out (see admin-a11y.spec.ts). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    .exclude('header')
    .exclude('[data-testid="app-sider"]')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}
