import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, selectOption, signInAsSuperAdmin } from '../support/admin';
import { TALL_DESKTOP } from '../support/chat';
import { signInDirect } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/** Serious and critical WCAG 2.1 A/AA problems of the whole page, open dialogs included. */
async function pageViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

const TEXT = {
  'zh-CN': { page: '提示词模板', picker: '提示词模板', scope: '个人' },
  'en-US': { page: 'Prompt templates', picker: 'Prompt templates', scope: 'Personal' },
} as const;

for (const language of LANGUAGES) {
  test.describe(`prompt templates (${language})`, () => {
    test.use({ locale: language, viewport: TALL_DESKTOP });
    test.slow();

    test('a template with two variables is made, picked with / in the chat and fills the composer', async ({
      page,
      request,
    }) => {
      const user = await registerViaApi(request, { prefix: 'prompt' });
      const title = `Reply ${uniqueToken()}`;
      await signInDirect(page, user.email, user.password, '/prompts');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(TEXT[language].page));

      await page.getByTestId('prompt-create').click();
      await page.getByTestId('prompt-edit-title').fill(title);
      await page
        .getByTestId('prompt-edit-content')
        .fill('Write to {{customer}} about {{ 主题 }}. Thanks, {{customer}}!');
      await page.getByTestId('prompt-edit-submit').click();
      const item = page.getByTestId('prompt-item').filter({ hasText: title });
      await expect(item).toBeVisible();
      await expect(item.getByTestId('prompt-scope-tag')).toHaveText(TEXT[language].scope);
      await expect(item).toContainText('customer, 主题');
      expect(await pageViolations(page)).toEqual([]);

      await page.goto('/chat');
      const input = page.getByTestId('chat-input');
      await expect(input).toBeVisible({ timeout: 30_000 });

      // Escape closes the picker and leaves the box empty.
      await input.click();
      await page.keyboard.press('/');
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(TEXT[language].picker);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(input).toHaveValue('');

      // Typing / into the empty box opens it; the search field has the focus.
      await input.click();
      await page.keyboard.press('/');
      await expect(page.getByTestId('prompt-picker-search')).toBeFocused();
      await page.keyboard.type(title.slice(0, 12));
      const option = page.getByRole('option').filter({ hasText: title });
      await expect(option).toHaveAttribute('aria-selected', 'true');
      await expect(option.getByTestId('prompt-scope-tag')).toHaveText(TEXT[language].scope);
      expect(await pageViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');

      await expect(page.getByTestId('prompt-fill-form')).toBeVisible();
      await expect(page.getByTestId('prompt-var-0')).toBeFocused();
      await page.getByTestId('prompt-var-0').fill('Ana');
      await page.getByTestId('prompt-var-1').fill('退款');
      expect(await pageViolations(page)).toEqual([]);
      await page.getByTestId('prompt-fill-submit').click();
      await expect(dialog).toBeHidden();
      // Filled, not sent.
      await expect(input).toHaveValue('Write to Ana about 退款. Thanks, Ana!');
      await expect(page.getByTestId('send-button')).toBeEnabled();
      await expect(page.getByTestId('message-item')).toHaveCount(0);
    });
  });
}

test.describe('prompt templates for a group', () => {
  test.use({ locale: 'en-US', viewport: TALL_DESKTOP });

  test('a super administrator writes one for another group; its members read it, others do not', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.superAdmin(request);
    const group = await admin.createGroup('prompts');
    const member = await admin.createUser({ prefix: 'pgm', groupId: group.id });
    const outsider = await admin.createUser({ prefix: 'pgo' });
    const title = `Team ${uniqueToken()}`;

    await signInAsSuperAdmin(page, '/prompts');
    await page.getByTestId('prompt-create').click();
    await page.getByTestId('prompt-edit-title').fill(title);
    await page.getByTestId('prompt-edit-content').fill('Summarise {{topic}} for the team');
    await page.getByTestId('prompt-edit-scope').click();
    await selectOption(page, 'Group').click();
    // The group defaults to the administrator's own; the other one is picked.
    await page.getByTestId('prompt-edit-group').click();
    await page.keyboard.type(group.name);
    await selectOption(page, group.name).click();
    expect(await pageViolations(page)).toEqual([]);
    await page.getByTestId('prompt-edit-submit').click();
    await expect(page.getByRole('dialog')).toBeHidden();

    const titlesOf = async (user: { email: string; password: string }) => {
      const login = await request.post('/api/auth/login', { data: { account: user.email, password: user.password } });
      const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
      const res = await request.get('/api/prompts', { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status()).toBe(200);
      return ((await res.json()) as { data: { title: string; group_id: number | null }[] }).data;
    };
    expect((await titlesOf(member)).filter((p) => p.title === title)).toEqual([
      expect.objectContaining({ title, group_id: group.id }),
    ]);
    expect((await titlesOf(outsider)).map((p) => p.title)).not.toContain(title);
  });
});

test.describe('prompt templates on a phone', () => {
  test.use({ locale: 'en-US', viewport: { width: 375, height: 740 } });

  test('the page and the picker fit 375 px', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'promptm' });
    await signInDirect(page, user.email, user.password, '/prompts');
    await page.getByTestId('prompt-create').click();
    await page.getByTestId('prompt-edit-title').fill('Phone template');
    await page.getByTestId('prompt-edit-content').fill('Hello {{name}}');
    await page.getByTestId('prompt-edit-submit').click();
    await expect(page.getByTestId('prompt-item')).toHaveCount(1);
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await wide()).toBeLessThanOrEqual(375);

    await page.goto('/chat');
    await expect(page.getByTestId('prompt-picker-button')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('prompt-picker-button').click();
    await expect(page.getByRole('option')).toHaveCount(1);
    expect(await wide()).toBeLessThanOrEqual(375);
    await page.getByRole('option').click();
    await page.getByTestId('prompt-var-0').fill('Bo');
    await page.getByTestId('prompt-fill-submit').click();
    await expect(page.getByTestId('chat-input')).toHaveValue('Hello Bo');
  });
});
