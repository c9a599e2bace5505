import { expect, test } from '@playwright/test';
import { AdminApi } from '../support/admin';
import { ChatApi, messages, openChat, TALL_DESKTOP, typeAndSend } from '../support/chat';
import { FAKE_API_KEY } from '../support/global-setup';
import { DEFAULT_MODEL } from '../support/models';
import { registerViaApi, uniqueToken } from '../support/users';

/*
 * A model switched off (or deleted) after a conversation used it: the conversation stays
 * readable, says why it cannot continue, and goes on once the user picks another model.
 */
test.describe('chat: a conversation whose model is no longer offered', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('stays readable, asks for another model, and continues with it', async ({ page, request }) => {
    const admin = await AdminApi.superAdmin(request);
    const name = `gone-${uniqueToken()}`;
    const created = await admin.raw('POST', '/admin/models', {
      name,
      display_name: `Soon gone ${name}`,
      provider: 'openai_compatible',
      api_endpoint: `${process.env.E2E_FAKE_URL}/v1`,
      api_key: FAKE_API_KEY,
      credits_per_chat: 1,
    });
    expect(created.status(), await created.text()).toBe(201);
    const model = ((await created.json()) as { data: { id: number } }).data;

    const user = await registerViaApi(request, { prefix: 'gone' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: name, title: 'Before the switch-off' });
    await openChat(page, user, conversation.id);
    await typeAndSend(page, 'first question');
    await expect(messages(page, 'assistant')).toHaveCount(1);
    await expect(page.getByTestId('model-gone')).toHaveCount(0);

    const off = await admin.raw('PUT', `/admin/models/${model.id}`, { is_active: false });
    expect(off.status(), await off.text()).toBe(200);
    try {
      await page.reload();
      await expect(page.getByTestId('model-gone')).toContainText(`Soon gone ${name}`);
      await expect(messages(page, 'user')).toContainText('first question');

      await page.getByTestId('model-picker').click();
      await page.getByTestId(`model-option-${DEFAULT_MODEL.name}`).click();
      await expect(page.getByTestId('model-gone')).toHaveCount(0);
      await typeAndSend(page, 'second question');
      await expect(messages(page, 'assistant')).toHaveCount(2);
    } finally {
      await admin.raw('DELETE', `/admin/models/${model.id}`);
    }
  });
});
