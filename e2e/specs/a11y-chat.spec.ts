import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { LANGUAGES } from '../support/admin';
import { ChatApi, conversationItem, conversationMore, messages, openChat, TALL_DESKTOP } from '../support/chat';
import { DEFAULT_MODEL, VISION_MODEL } from '../support/models';
import { registerViaApi } from '../support/users';

/** Serious and critical WCAG 2.1 A/AA problems of the whole page, open menus included. */
async function pageViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join(' | ')}`,
    );
}

/** A question whose echoed answer holds a table; the fake's answer adds a code block and formulas. */
const TABLE_QUESTION = 'Compare them\n\n| name | price |\n|---|---|\n| tea | 3 |\n| coffee | 4 |\n';

/** The one dropdown menu on screen (closed ones stay in the page, hidden). */
const openMenu = (page: Page) => page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]');

for (const language of LANGUAGES) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test.describe(`accessibility of the chat page (${language}, ${colorScheme})`, () => {
      test.use({ locale: language, viewport: TALL_DESKTOP });
      // Three axe analyses of a few seconds each.
      test.slow();

      test('no serious problems with an answer (code block, table), a row menu, the model picker and the new chat settings open', async ({
        page,
        request,
      }) => {
        const user = await registerViaApi(request, { prefix: 'a11yc' });
        const api = await ChatApi.login(request, user);
        await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Pinned one', is_pinned: true });
        const conversation = await api.createConversation({ model_name: VISION_MODEL.name, title: 'Tea or coffee' });
        await api.send(conversation.id, TABLE_QUESTION);

        await page.emulateMedia({ colorScheme });
        await openChat(page, user, conversation.id);
        const answer = messages(page, 'assistant');
        // Settled: the table, one code block (the first render can show it twice), formulas typeset.
        await expect(answer.locator('table')).toBeVisible();
        await expect(answer.getByTestId('code-copy')).toHaveCount(1);
        await expect(answer.locator('.katex-display')).toBeVisible();
        await expect(page.getByTestId('conversation-group-pinned')).toBeVisible();
        await page.mouse.move(0, 0);
        expect(await pageViolations(page), 'chat page').toEqual([]);

        await conversationMore(page, conversation.id).click();
        await expect(openMenu(page)).toBeVisible();
        expect(await pageViolations(page), 'row menu open').toEqual([]);
        await page.keyboard.press('Escape');
        await expect(openMenu(page)).toHaveCount(0);
        await expect(conversationMore(page, conversation.id)).toBeFocused();

        await page.getByTestId('model-picker').click();
        await expect(openMenu(page)).toBeVisible();
        expect(await pageViolations(page), 'model picker open').toEqual([]);
        await page.keyboard.press('Escape');
        await expect(openMenu(page)).toHaveCount(0);
        await expect(page.getByTestId('model-picker')).toBeFocused();

        // The new chat: its welcome screen with the settings drawer open over it.
        await page.getByTestId('chat-new-button').click();
        await expect(page.getByTestId('empty-state')).toBeVisible();
        await page.getByTestId('welcome-settings').click();
        await expect(page.getByTestId('new-chat-title')).toBeVisible();
        expect(await pageViolations(page), 'new chat settings open').toEqual([]);
      });
    });
  }
}

test.describe('keyboard use of the chat page', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('from the skip link, Tab passes the rows, their menus and the message actions to the model picker, which arrows and Enter operate', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'a11yk' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Keyboard only' });
    await api.send(conversation.id, 'A question to answer');
    await openChat(page, user, conversation.id);
    await expect(messages(page, 'assistant')).toHaveAttribute('data-status', 'complete');
    const picker = page.getByTestId('model-picker');
    await expect(picker).toHaveAccessibleName(`切换模型（当前：${DEFAULT_MODEL.display_name}）`);

    await page.keyboard.press('Tab');
    await expect(page.getByTestId('skip-link')).toBeFocused();
    const passed: string[] = [];
    for (let i = 0; i < 60 && !(await picker.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      passed.push(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? ''));
    }
    await expect(picker).toBeFocused();
    expect(passed).toEqual(expect.arrayContaining(['conversation-item', 'conversation-more', 'message-copy']));
    await expect(conversationItem(page, conversation.id)).toHaveAttribute('aria-current', 'page');

    // Enter opens the list on the current model.
    await page.keyboard.press('Enter');
    await expect(picker).toHaveAttribute('aria-expanded', 'true');
    const current = page.getByTestId(`model-option-${DEFAULT_MODEL.name}`);
    await expect(current).toBeFocused();
    await expect(current).toHaveAttribute('role', 'menuitemradio');
    await expect(current).toHaveAttribute('aria-checked', 'true');
    // Arrow down to the next model: its price and image support are read out as text.
    await page.keyboard.press('ArrowDown');
    const vision = page.getByTestId(`model-option-${VISION_MODEL.name}`);
    await expect(vision).toBeFocused();
    await expect(vision).toHaveAccessibleName(
      `${VISION_MODEL.display_name} 支持上传图片 ${VISION_MODEL.credits_per_chat} 积分/次`,
    );
    await page.keyboard.press('Enter');
    await expect(openMenu(page)).toHaveCount(0);
    await expect(picker).toBeFocused();
    await expect(picker).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('chat-model-tag')).toHaveText(VISION_MODEL.display_name);
    await expect.poll(async () => (await api.conversation(conversation.id)).model_name).toBe(VISION_MODEL.name);

    // Space opens it too; Escape closes it without a change and gives the focus back.
    await page.keyboard.press(' ');
    await expect(vision).toBeFocused();
    await expect(vision).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('ArrowUp');
    await expect(current).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(openMenu(page)).toHaveCount(0);
    await expect(picker).toBeFocused();
    await expect(page.getByTestId('chat-model-tag')).toHaveText(VISION_MODEL.display_name);
  });
});
