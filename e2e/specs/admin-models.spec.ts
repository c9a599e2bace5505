import AxeBuilder from '@axe-core/playwright';
import { type Locator, type Page, expect, test } from '@playwright/test';
import {
  AdminApi,
  type Language,
  LANGUAGES,
  dialog,
  newContextIn,
  popconfirmOk,
  signInAsSuperAdmin,
} from '../support/admin';
import {
  ChatApi,
  messages,
  openChat,
  openConversationId,
  TALL_DESKTOP,
  typeAndSend,
  upstreamRequest,
} from '../support/chat';
import { FAKE_API_KEY } from '../support/global-setup';
import { toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/**
 * The AI models tab of the system settings: a super administrator adds a model pointing at
 * the fake upstream, tests its connection, and a plain user chatting with it pays exactly
 * its price; rows are reordered by keyboard drag; the tab passes axe and fits a phone.
 */

const PRICE = 7;

interface Texts {
  tab: string;
  created: (name: string) => string;
  tested: (name: string) => RegExp;
  confirmDelete: (name: string) => string;
  deleted: (name: string) => string;
  balance: (credits: string) => string;
  sorted: string;
}

const TEXTS: Record<Language, Texts> = {
  'zh-CN': {
    tab: 'AI 模型',
    created: (name) => `已添加模型 ${name}`,
    tested: (name) => new RegExp(`^${name}：连接正常（\\d+ 毫秒）$`),
    confirmDelete: (name) => `删除模型 ${name}？`,
    deleted: (name) => `已删除模型 ${name}`,
    balance: (credits) => `余额：${credits} 积分`,
    sorted: '模型顺序已保存',
  },
  'en-US': {
    tab: 'AI models',
    created: (name) => `Model ${name} added`,
    tested: (name) => new RegExp(`^${name}: connection works \\(\\d+ ms\\)$`),
    confirmDelete: (name) => `Delete the model ${name}?`,
    deleted: (name) => `Model ${name} deleted`,
    balance: (credits) => `Balance: ${credits} credits`,
    sorted: 'Model order saved',
  },
};

/** The fake upstream's OpenAI-compatible base URL, as a model's API endpoint. */
function fakeEndpoint(): string {
  const origin = process.env.E2E_FAKE_URL;
  if (!origin) throw new Error('E2E_FAKE_URL is not set');
  return `${origin}/v1`;
}

/** Opens /admin/settings on the AI models tab and waits for the list. */
async function openModelsTab(page: Page, language: Language): Promise<void> {
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: TEXTS[language].tab }).click();
  await expect(page.getByTestId('models-table')).toBeVisible();
}

function modelRow(page: Page, id: number): Locator {
  return page.getByTestId('models-table').locator(`tr.ant-table-row[data-row-key="${id}"]`);
}

async function rowOrder(page: Page): Promise<number[]> {
  const keys = await page
    .getByTestId('models-table')
    .locator('tbody tr.ant-table-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row-key')));
  return keys.map(Number);
}

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

for (const language of LANGUAGES) {
  test.describe(`admin AI models (${language})`, () => {
    test.use({ locale: language, viewport: TALL_DESKTOP });
    // Two browser contexts, a connection test and a streamed answer.
    test.slow();

    test('a model added with a key and a price is tested, then charges a user exactly its price', async ({
      page,
      browser,
      request,
    }) => {
      const text = TEXTS[language];
      const token = uniqueToken();
      const name = `e2e-admin-${token}`;
      const displayName = `Admin model ${token}`;

      await signInAsSuperAdmin(page);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await openModelsTab(page, language);

      // Add the model through the form: the fake upstream, its key, 7 credits per chat.
      await page.getByTestId('model-create-button').click();
      const form = dialog(page, 'model-form-modal');
      await expect(form).toBeVisible();
      await expect(page.getByTestId('model-form-provider')).toContainText(
        language === 'zh-CN' ? 'OpenAI 兼容' : 'OpenAI-compatible',
      );
      // The image switch says how much of a conversation's images a turn sends.
      await expect(form).toContainText(
        language === 'zh-CN' ? '每轮最多向模型发送 20 MB 图片' : 'A turn sends the model at most 20 MB of images',
      );
      await page.getByTestId('model-form-endpoint').fill(fakeEndpoint());
      await page.getByTestId('model-form-api-key').fill(FAKE_API_KEY);
      await page.getByTestId('model-form-name').fill(name);
      await page.getByTestId('model-form-display-name').fill(displayName);
      await page.getByTestId('model-form-credits').fill(String(PRICE));
      const created = page.waitForResponse(
        (r) => r.url().endsWith('/api/admin/models') && r.request().method() === 'POST',
      );
      await page.getByTestId('model-form-submit').click();
      const createdRes = await created;
      expect(createdRes.status(), await createdRes.text()).toBe(201);
      const sent = createdRes.request().postDataJSON() as Record<string, unknown>;
      expect(sent).toMatchObject({ name, api_key: FAKE_API_KEY, credits_per_chat: PRICE, group_ids: [] });
      const modelId = ((await createdRes.json()) as { data: { id: number } }).data.id;
      await expect(toast(page, text.created(displayName))).toBeVisible();
      await expect(form).toBeHidden();

      // The row shows the key only by its last characters, and the price.
      const row = modelRow(page, modelId);
      await expect(row).toContainText(displayName);
      await expect(page.getByTestId(`model-key-${modelId}`)).toHaveText(`…${FAKE_API_KEY.slice(-4)}`);
      await expect(row).not.toContainText(FAKE_API_KEY);
      await expect(page.getByTestId(`model-test-status-${modelId}`)).toHaveAttribute('data-status', 'never');

      // Test the connection: a success message with the latency, kept on the row.
      await page.getByTestId(`model-test-${modelId}`).click();
      await expect(toast(page, text.tested(displayName))).toBeVisible();
      await expect(page.getByTestId(`model-test-status-${modelId}`)).toHaveAttribute('data-status', 'success');

      // A plain user starts a chat with it and pays exactly its price.
      const user = await registerViaApi(request, { prefix: 'mdl' });
      const api = await ChatApi.login(request, user);
      const before = await api.remaining();
      const context = await newContextIn(browser, language);
      try {
        const userPage = await context.newPage();
        await userPage.setViewportSize(TALL_DESKTOP);
        await openChat(userPage, user);
        // Chosen on the welcome screen; the first message makes the conversation on it.
        await userPage.getByTestId('model-picker').click();
        await userPage.getByTestId(`model-option-${name}`).click();
        await expect(userPage.getByTestId('chat-model-tag')).toHaveText(displayName);

        const marker = `m-${uniqueToken()}`;
        await typeAndSend(userPage, `Hello new model ${marker}`);
        await expect(userPage).toHaveURL(/\/chat\?c=/);
        const conversationId = openConversationId(userPage);
        const answer = messages(userPage, 'assistant').last();
        await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
        await expect(userPage.getByTestId('chat-credits')).toContainText(
          text.balance(new Intl.NumberFormat(language).format(before - PRICE)),
        );
        expect(await api.remaining()).toBe(before - PRICE);
        expect((await api.conversation(conversationId)).model_name).toBe(name);
        const upstream = await upstreamRequest(marker, (r) => r.outcome !== 'pending');
        expect(upstream).toMatchObject({ model: name, authorization: `Bearer ${FAKE_API_KEY}`, outcome: 'completed' });
      } finally {
        await context.close();
      }

      // Delete it again, confirmed.
      await page.getByTestId(`model-delete-${modelId}`).click();
      const deleted = page.waitForResponse(
        (r) => r.url().endsWith(`/api/admin/models/${modelId}`) && r.request().method() === 'DELETE',
      );
      await popconfirmOk(page, text.confirmDelete(displayName)).click();
      expect((await deleted).status()).toBe(200);
      await expect(toast(page, text.deleted(displayName))).toBeVisible();
      await expect(row).toHaveCount(0);
    });
  });
}

const KEY_AGAIN: Record<Language, { hint: string; required: string }> = {
  'zh-CN': {
    hint: '地址已指向另一台服务器，已保存的密钥不会发往那里：请输入该服务器的密钥（或移除密钥）。',
    required: '地址已更换，请重新输入 API 密钥',
  },
  'en-US': {
    hint: 'The address now points to another server, and the stored key is never sent there: enter the key for this server (or remove the key).',
    required: 'Enter the API key again for the new address',
  },
};

for (const language of LANGUAGES) {
  test(`moving a model to another server asks for its key again (${language})`, async ({ browser, request }) => {
    test.slow();
    const superAdmin = await AdminApi.superAdmin(request);
    const token = uniqueToken();
    const res = await superAdmin.raw('POST', '/admin/models', {
      name: `e2e-origin-${token}`,
      provider: 'openai_compatible',
      api_endpoint: fakeEndpoint(),
      api_key: FAKE_API_KEY,
      is_active: false,
    });
    expect(res.status(), await res.text()).toBe(201);
    const modelId = ((await res.json()) as { data: { id: number } }).data.id;
    const context = await newContextIn(browser, language);
    try {
      const page = await context.newPage();
      await signInAsSuperAdmin(page, null);
      await openModelsTab(page, language);
      await page.getByTestId(`model-edit-${modelId}`).click();
      const form = dialog(page, 'model-form-modal');
      await expect(form).toBeVisible();
      const keyField = form.locator('.ant-form-item').filter({ has: page.getByTestId('model-form-api-key') });
      const endpoint = page.getByTestId('model-form-endpoint');

      // Another path on the same server keeps the stored key: nothing to type.
      await endpoint.fill(`${fakeEndpoint()}/sub`);
      await expect(page.getByTestId('model-form-api-key-hint')).not.toHaveText(KEY_AGAIN[language].hint);

      // Another port is another server: the key is required again, and nothing is sent without it.
      let sent = 0;
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().endsWith(`/api/admin/models/${modelId}`)) sent += 1;
      });
      await endpoint.fill('http://127.0.0.1:1/v1');
      await expect(page.getByTestId('model-form-api-key-hint')).toHaveText(KEY_AGAIN[language].hint);
      await page.getByTestId('model-form-submit').click();
      await expect(keyField.locator('.ant-form-item-explain-error')).toHaveText(KEY_AGAIN[language].required);
      expect(sent).toBe(0);

      // With the key typed, the change is saved with it.
      await page.getByTestId('model-form-api-key').fill('sk-for-the-other-server');
      const saved = page.waitForResponse(
        (r) => r.url().endsWith(`/api/admin/models/${modelId}`) && r.request().method() === 'PUT',
      );
      await page.getByTestId('model-form-submit').click();
      const savedRes = await saved;
      expect(savedRes.status(), await savedRes.text()).toBe(200);
      expect(savedRes.request().postDataJSON()).toMatchObject({
        api_endpoint: 'http://127.0.0.1:1/v1',
        api_key: 'sk-for-the-other-server',
      });
    } finally {
      await context.close();
      expect((await superAdmin.raw('DELETE', `/admin/models/${modelId}`)).status()).toBe(200);
    }
  });
}

test.describe('admin AI models: order, accessibility, phone', () => {
  test('rows are reordered from the keyboard with the drag handle and the order is saved', async ({
    page,
    request,
  }) => {
    test.slow();
    const superAdmin = await AdminApi.superAdmin(request);
    const token = uniqueToken();
    const ids: number[] = [];
    for (const suffix of ['a', 'b']) {
      const res = await superAdmin.raw('POST', '/admin/models', {
        name: `e2e-sort-${suffix}-${token}`,
        display_name: `Sort ${suffix} ${token}`,
        provider: 'openai_compatible',
        api_endpoint: fakeEndpoint(),
        is_active: false,
        sort_order: 100_000,
      });
      expect(res.status(), await res.text()).toBe(201);
      ids.push(((await res.json()) as { data: { id: number } }).data.id);
    }
    const [first, second] = ids as [number, number];

    await signInAsSuperAdmin(page, null);
    await openModelsTab(page, 'zh-CN');
    const order = await rowOrder(page);
    expect(order.indexOf(second)).toBe(order.indexOf(first) + 1);

    // Space picks the row up by its handle, the up arrow moves it, Space drops it.
    const handle = page.getByTestId(`model-drag-${second}`);
    await expect(handle).toHaveAccessibleName(`移动 Sort b ${token}`);
    await handle.focus();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/admin/models/sort-order') && r.request().method() === 'PUT',
    );
    // Each step waits for what a screen reader hears (dnd-kit's live region) before the next key.
    const announced = page.locator('[id^="DndLiveRegion"]');
    await page.keyboard.press('Space');
    await expect(announced).toContainText(`Sort b ${token}`);
    await page.keyboard.press('ArrowUp');
    await expect(announced).toHaveText(`Sort b ${token} 已移到位置 ${order.indexOf(first) + 1}。`);
    await page.keyboard.press('Space');
    const savedRes = await saved;
    expect(savedRes.status(), await savedRes.text()).toBe(200);
    const body = savedRes.request().postDataJSON() as { sort_orders: { id: number; sort_order: number }[] };
    const orderOf = (id: number) => body.sort_orders.find((s) => s.id === id)?.sort_order ?? -1;
    expect(orderOf(second)).toBeLessThan(orderOf(first));
    await expect(toast(page, TEXTS['zh-CN'].sorted)).toBeVisible();

    // The list shows the new order, and so does the server after a reload.
    const moved = await rowOrder(page);
    expect(moved.indexOf(first)).toBe(moved.indexOf(second) + 1);
    await page.reload();
    await page.getByRole('tab', { name: TEXTS['zh-CN'].tab }).click();
    await expect(modelRow(page, second)).toBeVisible();
    const reloaded = await rowOrder(page);
    expect(reloaded.indexOf(first)).toBe(reloaded.indexOf(second) + 1);

    for (const id of ids) expect((await superAdmin.raw('DELETE', `/admin/models/${id}`)).status()).toBe(200);
  });

  for (const language of LANGUAGES) {
    test(`the models tab and its form have no serious accessibility violations (${language})`, async ({ browser }) => {
      test.slow();
      const context = await newContextIn(browser, language);
      try {
        const page = await context.newPage();
        await signInAsSuperAdmin(page, null);
        await openModelsTab(page, language);
        await expect(page.getByTestId('models-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByTestId('model-create-button').click();
        await expect(dialog(page, 'model-form-modal')).toBeVisible();
        await page.getByTestId('model-form-group-scope').getByRole('radio').last().check();
        await expect(page.getByTestId('model-form-groups')).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  test('on a phone the table scrolls sideways inside itself and the form fits the screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAsSuperAdmin(page, null);
    await openModelsTab(page, 'zh-CN');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const scroller = page.getByTestId('models-table').locator('.ant-table-content').first();
    const widths = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);

    await page.getByTestId('model-create-button').click();
    const form = dialog(page, 'model-form-modal');
    await expect(form).toBeVisible();
    for (const target of [form, page.getByTestId('model-form-endpoint'), page.getByTestId('model-form-name')]) {
      const box = await target.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375.5).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
