import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { LANGUAGES, openAdminPage, signInAsSuperAdmin } from '../support/admin';
import { ChatApi } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { signInDirect } from '../support/ui';
import { registerViaApi } from '../support/users';

/**
 * Serious and critical WCAG 2.1 A/AA problems of the whole page, header and menu included
 * (antd's hidden table measure row too: the app makes it inert).
 */
async function pageViolations(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Relative luminance of a computed `rgb(…)` colour (0 black … 1 white). */
function luminanceOf(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
    const s = Number(c) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const backgroundOf = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => getComputedStyle(el).backgroundColor);
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const cardBackground = (page: Page) =>
  page
    .locator('.ant-card')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

/**
 * The luminance of a colour read from the page, polled: the theme attribute flips before every
 * element has repainted (and a card may still be mounting after a reload), so one read can catch
 * an in-between value.
 */
const luminanceFrom = (read: () => Promise<string>) =>
  expect.poll(async () => luminanceOf(await read()), { timeout: 10_000 });

const htmlTheme = (page: Page) => page.locator('html').getAttribute('data-theme');

for (const language of LANGUAGES) {
  test.describe(`dark theme, following the system (${language})`, () => {
    test.use({ locale: language, colorScheme: 'dark' });
    test.slow();

    test('sign-in, registration, dashboard, profile and an admin page: no serious problems', async ({
      page,
      request,
    }) => {
      for (const path of ['/login', '/register']) {
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
        await expect(page.getByTestId('theme-switch')).toBeVisible();
        await expect(page.locator('h1')).toHaveCount(1);
        expect(await pageViolations(page), path).toEqual([]);
      }

      const user = await registerViaApi(request, { prefix: 'dark' });
      await signInDirect(page, user.email, user.password);
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await expect(page.locator('h1')).toHaveCount(1);
      expect(await pageViolations(page), 'dashboard').toEqual([]);

      await page.goto('/profile');
      await expect(page.getByTestId('profile-info-card')).toBeVisible({ timeout: 30_000 });
      expect(await pageViolations(page), 'profile').toEqual([]);

      await signInAsSuperAdmin(page, null);
      await openAdminPage(page, 'users');
      expect(await pageViolations(page), 'admin users').toEqual([]);
    });
  });
}

test.describe('theme choice', () => {
  test('follows the system live; "dark" from the header is kept across a reload', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'theme' });
    await page.emulateMedia({ colorScheme: 'light' });
    await signInDirect(page, user.email, user.password);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await luminanceFrom(() => bodyBackground(page)).toBeGreaterThan(0.8);
    await luminanceFrom(() => cardBackground(page)).toBeGreaterThan(0.8);

    // The system turns dark while the page is open: the page follows at once.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    // Choosing "dark" in the header overrides the light system, and survives a reload.
    await page.getByTestId('theme-switch').click();
    await page.getByTestId('theme-option-dark').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByTestId('theme-switch')).toHaveAttribute('data-mode', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('theme-mode'))).toBe('dark');
    await page.reload();
    await expect(page.getByTestId('dashboard-welcome')).toBeVisible({ timeout: 30_000 });
    expect(await htmlTheme(page)).toBe('dark');
    await luminanceFrom(() => bodyBackground(page)).toBeLessThan(0.05);
    await luminanceFrom(() => cardBackground(page)).toBeLessThan(0.05);

    // The chat screen is dark too: its frame, the messages' background and the text box.
    await page.goto('/chat');
    await expect(page.getByTestId('chat-input')).toBeVisible({ timeout: 30_000 });
    await luminanceFrom(() => backgroundOf(page, 'chat-page')).toBeLessThan(0.05);
    await luminanceFrom(() => backgroundOf(page, 'chat-input-area')).toBeLessThan(0.05);
    await luminanceFrom(() => backgroundOf(page, 'chat-input')).toBeLessThan(0.05);

    // "Light" wins over a dark system the same way.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('theme-switch').click();
    await page.getByTestId('theme-option-light').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await luminanceFrom(() => backgroundOf(page, 'chat-page')).toBeGreaterThan(0.8);
  });
});

test.describe('chat on a phone (375 × 667)', () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test('the empty input area takes at most a quarter of the screen; "new chat" and the theme are at hand', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'slim' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Phone' });
    await signInDirect(page, user.email, user.password, `/chat?c=${conversation.id}`);
    const composer = page.getByTestId('chat-input-area');
    await expect(composer).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('send-button')).toBeVisible();
    const box = await composer.boundingBox();
    expect(box?.height).toBeLessThanOrEqual(667 / 4);
    // The send button keeps its name while showing its icon only.
    await expect(page.getByRole('button', { name: /发送|Send/ })).toBeVisible();

    // The text box starts at one line and grows with the text, up to a limit.
    const input = page.getByTestId('chat-input');
    const oneLine = (await input.boundingBox())?.height ?? 0;
    expect(oneLine).toBeLessThan(40);
    await input.fill('one\ntwo\nthree');
    await expect.poll(async () => (await input.boundingBox())?.height ?? 0).toBeGreaterThan(oneLine * 2);
    await input.fill(Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n'));
    await expect.poll(async () => (await input.boundingBox())?.height ?? 0).toBeLessThan(667 / 3);
    await input.fill('');

    // A new conversation without opening the list.
    const newButton = page.getByTestId('chat-header-new');
    await expect(newButton).toBeVisible();
    await expect(newButton).toHaveAccessibleName(/新建对话|New chat/);
    await newButton.click();
    await expect(page.getByTestId('chat-header-title')).toHaveText('新对话');
    await expect(page.getByTestId('empty-state')).toBeVisible();

    // No room in the header: the theme choices are in the user menu.
    await expect(page.getByTestId('theme-switch')).toHaveCount(0);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('theme-option-dark').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await luminanceFrom(() => backgroundOf(page, 'chat-input-area')).toBeLessThan(0.05);
    expect((await composer.boundingBox())?.height).toBeLessThanOrEqual(667 / 4);
  });
});
