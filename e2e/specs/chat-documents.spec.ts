import fs from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { LANGUAGES, selectOption, signInAsSuperAdmin } from '../support/admin';
import { ChatApi, messages, openChat, TALL_DESKTOP, typeAndSend } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { seriousViolations } from '../support/site-settings';
import { signInDirect } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

/** Where screenshots go when asked for (outside the repository); none otherwise. */
const SHOTS = process.env.E2E_SHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const TEXT = {
  'zh-CN': { pages: '3 页', page3: '第 3 页', sources: '引用来源', whole: /整篇文档/, save: /保\s?存/ },
  'en-US': { pages: '3 p.', page3: 'p. 3', sources: 'Sources', whole: /whole document/, save: /^Save$/ },
} as const;

/** A three-page PDF whose last page holds a fact named by `marker`, so a search finds it there. */
async function contractPdf(path: string, marker: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = [
    ['Supply agreement', 'This agreement is made between the buyer and the seller of office furniture.'],
    ['Delivery terms', 'Goods are delivered within thirty days of the order to the address of the buyer.'],
    ['Penalties', `The penalty ${marker} for late delivery is seven percent of the order value per week.`],
  ];
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 12, font }));
  }
  fs.writeFileSync(path, await pdf.save());
}

const chip = (page: Page) => page.getByTestId('document-chip');
const drawer = (page: Page) => page.getByTestId('file-text-drawer');

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`chat: documents (${language})`, () => {
    test.use({ locale: language, viewport: TALL_DESKTOP });
    // Extraction, two answers and two axe analyses.
    test.slow();

    test('a PDF is attached, read, previewed, sent and cited; the citation opens its text', async ({
      page,
      request,
    }, testInfo) => {
      const user = await registerViaApi(request, { prefix: 'cdoc' });
      const api = await ChatApi.login(request, user);
      const marker = `m${uniqueToken()}`;
      const file = testInfo.outputPath(`contract-${marker}.pdf`);
      await contractPdf(file, marker);
      const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Contract' });
      await openChat(page, user, conversation.id);

      const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/chat/files'));
      await page.getByTestId('attach-input').setInputFiles(file);
      expect((await uploaded).status()).toBe(201);
      await expect(chip(page)).toContainText(`contract-${marker}.pdf`);
      await expect(chip(page)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      await expect(chip(page).getByTestId('document-chip-detail')).toContainText(T.pages);
      // Whole or by passages, and the price, before sending.
      await expect(page.getByTestId('document-plan')).toContainText(T.whole);
      expect(await seriousViolations(page), 'composer with a document').toEqual([]);
      await shot(page, `composer-${language}`);

      // The chip opens the extracted text, page by page.
      await page.getByTestId('document-chip-open').click();
      await expect(drawer(page).getByTestId('file-text-page')).toHaveCount(3);
      await expect(drawer(page).locator('[data-page="3"]')).toContainText(`The penalty ${marker} for late delivery`);
      await page.keyboard.press('Escape');
      await expect(drawer(page)).toBeHidden();

      await typeAndSend(page, `What is the penalty ${marker} for late delivery?`);
      await expect(chip(page)).toHaveCount(0);
      const answer = messages(page, 'assistant').last();
      await expect(answer).toHaveAttribute('data-status', 'complete');
      await expect(messages(page, 'user').last().getByTestId('message-document')).toHaveText(`contract-${marker}.pdf`);
      const citations = answer.getByTestId('message-citations');
      await expect(citations).toContainText(T.sources);
      await expect(citations.getByTestId('message-citation').first()).toContainText(`contract-${marker}.pdf`);
      await shot(page, `citations-${language}`);

      // Stored with the answer: still there after a reload, and it opens the document's text.
      await page.reload();
      const stored = messages(page, 'assistant').last().getByTestId('message-citation').first();
      await expect(stored).toContainText(`contract-${marker}.pdf`);
      await stored.click();
      await expect(drawer(page).locator('[aria-current="true"]')).toBeVisible();
      await expect(drawer(page)).toContainText(`The penalty ${marker} for late delivery`);
      await shot(page, `citation-open-${language}`);
    });

    test('a knowledge base is made, filled and searched by a conversation; the citation names the page', async ({
      page,
      request,
    }, testInfo) => {
      const user = await registerViaApi(request, { prefix: 'ckb' });
      const api = await ChatApi.login(request, user);
      const marker = `k${uniqueToken()}`;
      const file = testInfo.outputPath(`manual-${marker}.pdf`);
      await contractPdf(file, marker);
      const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Ask the manual' });
      await openChat(page, user, conversation.id);

      await page.getByTestId('menu-knowledge').click();
      await expect(page.getByTestId('knowledge-page')).toBeVisible();
      await page.getByTestId('kb-create').click();
      const name = `Manuals ${marker}`;
      await page.getByTestId('kb-name').fill(name);
      await page.getByTestId('kb-create-submit').click();
      await expect(page.getByTestId('kb-title')).toContainText(name);

      await page.getByTestId('kb-upload-input').setInputFiles(file);
      const doc = page.getByTestId('kb-doc');
      await expect(doc).toContainText(`manual-${marker}.pdf`);
      await expect(doc).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      expect(await seriousViolations(page), 'knowledge base page').toEqual([]);
      await shot(page, `knowledge-base-${language}`);
      const kbPath = new URL(page.url()).pathname;

      // The conversation searches it from now on.
      await page.goto(`/chat?c=${conversation.id}`);
      await page.getByTestId('chat-header-settings').click();
      await page.getByTestId('settings-knowledge-bases').click();
      await selectOption(page, name).click();
      await page.keyboard.press('Escape');
      await page.getByTestId('settings-submit').click();
      await expect(page.getByTestId('conversation-settings-drawer')).toBeHidden();
      expect((await api.conversation(conversation.id)).knowledge_base_ids).toHaveLength(1);

      await typeAndSend(page, `What is the penalty ${marker} for late delivery?`);
      const answer = messages(page, 'assistant').last();
      await expect(answer).toHaveAttribute('data-status', 'complete');
      const cited = answer.locator('[data-testid="message-citation"][data-page="3"]');
      await expect(cited).toContainText(`manual-${marker}.pdf`);
      await expect(cited).toContainText(T.page3);
      await cited.click();
      const target = drawer(page).locator('[data-page="3"]');
      await expect(target).toHaveAttribute('aria-current', 'true');
      await expect(target.getByTestId('file-text-highlight')).toContainText(marker);
      await expect(target.getByTestId('file-text-highlight')).toBeInViewport();
      await shot(page, `knowledge-citation-${language}`);

      // Renamed, then the document removed from it: nothing of it is left to search.
      await page.goto(kbPath);
      await page.getByTestId('kb-edit').click();
      await page.getByTestId('kb-edit-name').fill(`${name} v2`);
      await page.getByTestId('kb-edit-submit').click();
      await expect(page.getByTestId('kb-title')).toContainText(`${name} v2`);
      await page.getByTestId('kb-doc-remove').click();
      await expect(page.locator('.ant-modal-confirm-title')).toContainText(`manual-${marker}.pdf`);
      await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
      await expect(page.getByTestId('kb-doc')).toHaveCount(0);
    });
  });
}

test.describe('knowledge bases of a group', () => {
  test('a super administrator makes one for a group they choose; an ordinary user is offered only personal ones', async ({
    page,
    request,
  }) => {
    await signInAsSuperAdmin(page, '/knowledge');
    await page.getByTestId('kb-create').click();
    const name = `Group handbook ${uniqueToken()}`;
    await page.getByTestId('kb-name').fill(name);
    await page.getByTestId('kb-scope').getByText('用户组').click();
    await page.getByTestId('kb-group').click();
    await selectOption(page, '默认分组').click();
    await page.getByTestId('kb-create-submit').click();
    await expect(page.getByTestId('kb-title')).toContainText(name);
    await expect(page.getByTestId('kb-scope-tag')).toHaveText('用户组');
    await page.getByTestId('kb-delete').click();
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    await expect(page.getByTestId('knowledge-page')).toBeVisible();

    const user = await registerViaApi(request, { prefix: 'ckbu' });
    await signInDirect(page, user.email, user.password, '/knowledge');
    await page.getByTestId('kb-create').click();
    await expect(page.getByTestId('kb-name')).toBeVisible();
    await expect(page.getByTestId('kb-scope')).toHaveCount(0);
  });
});

test.describe('chat: documents dropped or pasted', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('a file dropped on the composer, or pasted into it, is attached as a document', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cdrop' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Dropped' });
    await openChat(page, user, conversation.id);

    // A drop and a paste carry files in a DataTransfer, as a browser makes them.
    const transfer = (name: string) =>
      page.evaluateHandle((fileName) => {
        const data = new DataTransfer();
        data.items.add(
          new File([`Notes from ${fileName}.\nThe meeting moved to Friday.`], fileName, { type: 'text/plain' }),
        );
        return data;
      }, name);
    const zone = page.getByTestId('chat-drop-zone');
    const dropped = await transfer('dropped-notes.txt');
    await zone.dispatchEvent('dragenter', { dataTransfer: dropped });
    await expect(zone).toHaveClass(/is-dragging/);
    await zone.dispatchEvent('drop', { dataTransfer: dropped });
    await expect(zone).not.toHaveClass(/is-dragging/);
    await expect(chip(page)).toContainText('dropped-notes.txt');

    await page.getByTestId('chat-input').evaluate(
      (box, data) => {
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      await transfer('pasted-notes.txt'),
    );
    await expect(chip(page)).toHaveCount(2);
    await expect(chip(page).nth(1)).toContainText('pasted-notes.txt');
    await expect(chip(page).nth(1)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });

    // Removed from the message before it is sent.
    await chip(page).first().getByTestId('document-remove').click();
    await expect(chip(page)).toHaveCount(1);
    await expect(chip(page)).toContainText('pasted-notes.txt');
  });
});

test.describe('chat: documents on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the composer with a document and the knowledge bases fit 375 px', async ({ page, request }, testInfo) => {
    const user = await registerViaApi(request, { prefix: 'cdocm' });
    const api = await ChatApi.login(request, user);
    const file = testInfo.outputPath('a-rather-long-document-name-for-a-phone.pdf');
    await contractPdf(file, `p${uniqueToken()}`);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Phone' });
    await signInDirect(page, user.email, user.password, `/chat?c=${conversation.id}`);
    await page.getByTestId('attach-input').setInputFiles(file);
    await expect(chip(page)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect(chip(page)).toBeInViewport();
    await expect(page.getByTestId('send-button')).toBeInViewport();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'composer-375');

    await page.goto('/knowledge');
    await expect(page.getByTestId('kb-create')).toBeInViewport();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'knowledge-375');
  });
});
