import { type Language, LANGUAGES } from '@aiplatform/contracts';
import { type Page, expect, test } from '@playwright/test';
import { newContextIn } from '../support/admin';
import { ChatApi, openChat } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { seriousViolations } from '../support/site-settings';
import { signInDirect } from '../support/ui';
import { registerViaApi } from '../support/users';

interface Texts {
  dialogText: RegExp;
  revoked: string;
  missing: string;
}

const TEXTS: Record<Language, Texts> = {
  'zh-CN': {
    dialogText: /分享此对话/,
    revoked: '已撤销',
    missing: '此链接不可用',
  },
  'en-US': {
    dialogText: /Share this conversation/,
    revoked: 'Revoked',
    missing: 'This link is not available',
  },
};

const PHONE = { width: 375, height: 740 };

/** The page has nothing wider than the screen (no sideways scrolling at 375 px). */
async function fitsWidth(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

for (const language of LANGUAGES) {
  test.describe(`share links (${language})`, () => {
    test.use({ locale: language });
    // Two users in two browser contexts, a page build each: the slow-test budget.
    test.slow();

    test('share a conversation, read it as a colleague, continue it, then revoke it', async ({ page, browser }) => {
      const text = TEXTS[language];
      const owner = await registerViaApi(page.request, { prefix: 'shr' });
      const api = await ChatApi.login(page.request, owner);
      const conv = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: `Shared ${language}` });
      await api.send(conv.id, 'What is the formula?');

      // The owner shares from the chat header and copies the link.
      await openChat(page, owner, conv.id);
      await page.getByTestId('chat-header-share').click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(text.dialogText);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('share-create').click();
      const urlField = page.getByTestId('share-link-url');
      await expect(urlField).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
      const url = await urlField.inputValue();
      await page.getByTestId('share-done').click();

      // A colleague opens it signed in, on a phone: the answer is rendered like the chat.
      const reader = await registerViaApi(page.request, { prefix: 'shrd' });
      const context = await newContextIn(browser, language);
      const other = await context.newPage();
      await other.setViewportSize(PHONE);
      await signInDirect(other, reader.email, reader.password, new URL(url).pathname);
      await expect(other.getByTestId('share-title')).toHaveText(`Shared ${language}`);
      const answer = other.locator('[data-testid="share-message"][data-role="assistant"]');
      await expect(answer).toContainText('Echo: What is the formula?');
      // Markdown, code and math as in the chat.
      await expect(answer.locator('li').first()).toBeVisible();
      // The TypeScript block, highlighted; display math is a `pre code` too until KaTeX replaces it.
      await expect(answer.locator('pre code.language-ts')).toBeVisible();
      await expect(answer.locator('.katex').first()).toBeVisible();
      await fitsWidth(other);
      expect(await seriousViolations(other, { signedIn: false })).toEqual([]);

      // Continue: a new conversation of the reader's, with the copied messages.
      await other.getByTestId('share-continue').click();
      await expect(other).toHaveURL(/\/chat\?c=/);
      await expect(other.locator('[data-testid="message-item"][data-role="assistant"]')).toContainText(
        'Echo: What is the formula?',
      );

      // The owner sees the visit in the profile and revokes the link.
      await page.goto('/profile?tab=shares');
      const table = page.getByTestId('shared-links-table');
      await expect(table.getByTestId('share-visits').first()).toHaveText('1');
      expect(await seriousViolations(page)).toEqual([]);
      await table.getByTestId('share-revoke').first().click();
      await page.getByTestId('share-revoke-confirm').click();
      await expect(table.getByTestId('share-status').first()).toHaveText(text.revoked);

      // The link is gone for the colleague too.
      await other.goto(new URL(url).pathname);
      await expect(other.getByTestId('share-missing')).toContainText(text.missing);
      expect(await seriousViolations(other, { signedIn: false })).toEqual([]);
      await context.close();
    });

    test('a visitor without sign-in gets the not-available page and is offered to sign in', async ({ page }) => {
      const text = TEXTS[language];
      const owner = await registerViaApi(page.request, { prefix: 'shrv' });
      const api = await ChatApi.login(page.request, owner);
      const conv = await api.createConversation({ model_name: DEFAULT_MODEL.name });
      await api.send(conv.id, 'Private question');
      const res = await page.request.post(`/api/chat/conversations/${conv.id}/share`, {
        headers: api.headers,
        data: {},
      });
      expect(res.status()).toBe(201);
      const { data } = (await res.json()) as { data: { url: string } };
      await page.setViewportSize(PHONE);
      await page.goto(data.url);
      await expect(page.getByTestId('share-missing')).toContainText(text.missing);
      await fitsWidth(page);
      expect(await seriousViolations(page, { signedIn: false })).toEqual([]);
    });
  });
}
