import fs from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { fakeAnswer } from '../../apps/server/test/fake-upstream';
import { ChatApi, conversationItem, messages, openChat, TALL_DESKTOP } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { signInDirect, toast } from '../support/ui';
import { registerViaApi, uniqueToken } from '../support/users';

const CODE = ['function add(a: number, b: number): number {', '  return a + b;', '}'].join('\n');

/** `YYYY-MM-DD HH:mm:ss` in UTC, the time zone the browser runs in below. */
const utcStamp = (value: string | Date) => new Date(value).toISOString().slice(0, 19).replace('T', ' ');

test.describe('chat: message actions', () => {
  test.use({ viewport: TALL_DESKTOP, permissions: ['clipboard-read', 'clipboard-write'], timezoneId: 'UTC' });

  test('copying a code block puts exactly the code on the clipboard; a whole message copies its markdown', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'ccopy' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Copy' });
    const question = `Code please ${uniqueToken()}`;
    await api.send(conversation.id, question);
    await openChat(page, user, conversation.id);

    const answer = messages(page, 'assistant');
    // The first render can show the code block twice for a moment (a known glitch); once
    // settled there is exactly one.
    const copyCode = answer.getByTestId('code-copy');
    await expect(copyCode).toHaveCount(1);
    await expect(copyCode).toHaveText('复制代码');
    await copyCode.click();
    await expect(toast(page, '代码已复制')).toBeVisible();
    await expect(copyCode).toHaveText('已复制');
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    expect(clip.replace(/\n$/, '')).toBe(CODE);
    // The copied indicator goes back after 2 s.
    await expect(copyCode).toHaveText('复制代码', { timeout: 5_000 });

    await answer.getByTestId('message-copy').click();
    await expect(toast(page, '内容已复制')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fakeAnswer(question));
  });

  test('deleting an answer removes it with its question, here and on the server; the count drops by 2', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cdel' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Delete pair' });
    const first = await api.send(conversation.id, `First question ${uniqueToken()}`);
    const second = await api.send(conversation.id, `Second question ${uniqueToken()}`);
    await openChat(page, user, conversation.id);

    const item = conversationItem(page, conversation.id);
    await expect(item).toContainText('4 条消息');
    await expect(messages(page)).toHaveCount(4);
    // Only answers can be deleted.
    await expect(messages(page, 'user').getByTestId('message-delete')).toHaveCount(0);

    const firstAnswer = page.locator(`[data-testid="message-item"][data-id="${first.assistant_message.id}"]`);
    await firstAnswer.getByTestId('message-delete').click();
    await page.getByTestId('message-delete-confirm').click();
    await expect(toast(page, '消息已删除')).toBeVisible();

    await expect(messages(page)).toHaveCount(2);
    await expect(page.locator(`[data-id="${first.user_message.id}"]`)).toHaveCount(0);
    await expect(page.locator(`[data-id="${first.assistant_message.id}"]`)).toHaveCount(0);
    await expect(messages(page, 'user')).toContainText(second.user_message.content);
    await expect(item).toContainText('2 条消息');

    const left = await api.messages(conversation.id);
    expect(left.map((m) => m.id)).toEqual([second.user_message.id, second.assistant_message.id]);
    expect((await api.conversation(conversation.id)).message_count).toBe(2);

    await page.reload();
    await expect(messages(page)).toHaveCount(2);
    await expect(conversationItem(page, conversation.id)).toContainText('2 条消息');
  });

  test('export downloads a text file named from the title and time, with the header and every message', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'cexp' });
    const api = await ChatApi.login(request, user);
    const token = uniqueToken();
    // `:` and `/` cannot be in a file name; they become `_`.
    const title = `Export: report/${token}`;
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title });
    const first = await api.send(conversation.id, `Export question one ${token}`);
    const second = await api.send(conversation.id, `Export question two ${token}`);
    await openChat(page, user, conversation.id);
    await expect(messages(page)).toHaveCount(4);

    const startedAt = new Date();
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-button').click();
    const download = await downloading;
    const endedAt = new Date();
    await expect(toast(page, '对话已导出')).toBeVisible();

    const name = download.suggestedFilename();
    expect(name).toMatch(new RegExp(`^Export_ report_${token}_\\d{8}-\\d{6}\\.txt$`));
    const stamp = /_(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.txt$/.exec(name)?.slice(1).map(Number) ?? [];
    const named = Date.UTC(stamp[0] ?? 0, (stamp[1] ?? 1) - 1, stamp[2], stamp[3], stamp[4], stamp[5]);
    expect(named).toBeGreaterThanOrEqual(Math.floor(startedAt.getTime() / 1000) * 1000);
    expect(named).toBeLessThanOrEqual(endedAt.getTime());

    const text = fs.readFileSync(await download.path(), 'utf8');
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `标题: ${title}`,
      `模型: ${DEFAULT_MODEL.display_name}`,
      `创建时间: ${utcStamp(conversation.created_at)}`,
    ]);
    expect(lines[3]).toMatch(/^导出时间: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(lines[3]).toBe(`导出时间: ${utcStamp(new Date(named))}`);
    expect(lines.slice(4, 6)).toEqual(['消息数: 4', '='.repeat(50)]);

    const block = (m: (typeof first)['user_message'], label: string) =>
      [
        `[${label}] ${utcStamp(m.created_at)}`,
        m.content,
        ...(m.role === 'assistant' ? [`Tokens: ${m.tokens}`] : []),
      ].join('\n');
    const expectedBody = [
      block(first.user_message, '用户'),
      block(first.assistant_message, 'AI 助手'),
      block(second.user_message, '用户'),
      block(second.assistant_message, 'AI 助手'),
    ].join(`\n\n${'-'.repeat(50)}\n\n`);
    expect(text).toBe(`${lines.slice(0, 6).join('\n')}\n\n${expectedBody}\n`);
    expect(first.assistant_message.content).toBe(fakeAnswer(first.user_message.content));
    expect(first.assistant_message.tokens).toBeGreaterThan(0);
  });
});

/** The first question's row and bubble against the list's visible box, the list scrolled to the top. */
async function firstQuestionFit(page: Page) {
  const list = page.getByTestId('message-list');
  await list.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBe(0);
  return page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="message-list"]');
    const item = document.querySelector('[data-testid="message-item"][data-role="user"]');
    const bubble = item?.querySelector<HTMLElement>('.chat-bubble');
    if (!scroller || !item || !bubble) return null;
    const view = scroller.getBoundingClientRect();
    const inside = (r: DOMRect) =>
      r.top >= view.top - 0.5 &&
      r.bottom <= view.bottom + 0.5 &&
      r.left >= view.left - 0.5 &&
      r.right <= view.right + 0.5;
    // Whatever lies on top of the bubble near its corners (a header, a toolbar) would hide part
    // of it; 12 px in, past the rounded corners, which are not the bubble's to hit.
    const b = bubble.getBoundingClientRect();
    const corners: [number, number][] = [
      [b.left + 12, b.top + 12],
      [b.right - 12, b.top + 12],
      [b.left + 12, b.bottom - 12],
      [b.right - 12, b.bottom - 12],
    ];
    return {
      rowInside: inside(item.getBoundingClientRect()),
      bubbleInside: inside(b),
      textCut: bubble.scrollHeight > bubble.clientHeight + 1 || bubble.scrollWidth > bubble.clientWidth + 1,
      covered: corners
        .map(([x, y]) => document.elementFromPoint(x, y))
        .filter((hit) => !bubble.contains(hit))
        .map((hit) => (hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing')),
      pageWider: document.documentElement.scrollWidth > window.innerWidth,
    };
  });
}

test.describe('chat: the first question after its answer', () => {
  test('the first question is shown whole at 1440 and 375 px once the answer has come', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cfit' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInDirect(page, user.email, user.password, '/chat');
    const input = page.getByTestId('chat-input');
    await expect(input).toBeVisible({ timeout: 30_000 });
    // Several lines and an unbroken run of characters: the bubble wraps, it does not overflow.
    const question = `First question ${uniqueToken()}\nline two\n${'x'.repeat(90)}`;
    await input.fill(question);
    await input.press('Enter');
    await expect(messages(page, 'assistant').getByTestId('message-copy')).toBeVisible({ timeout: 30_000 });
    await expect(messages(page, 'user').locator('.chat-user-text')).toHaveText(question);

    const whole = { rowInside: true, bubbleInside: true, textCut: false, covered: [], pageWider: false };
    expect(await firstQuestionFit(page)).toEqual(whole);
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(page.getByTestId('chat-sidebar')).toBeHidden();
    expect(await firstQuestionFit(page)).toEqual(whole);
  });
});
