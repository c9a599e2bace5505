import type { Kysely } from 'kysely';
import type { CreditHistoryResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation, sendStreamed } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { fillLedgerChatContext } from '../../db/migrations/0009-ledger-chat-context.js';

const HISTORY = '/api/auth/credit-history?limit=100';

describe('credit history lines name the conversation and model of each chat charge', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await createChatApp());
  });
  afterAll(async () => {
    await t.close();
  });

  const history = async (token: string) => (await t.get<CreditHistoryResult>(HISTORY, token)).body.data.history;

  it('a charge names its conversation (current title) and model; a refund too', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const answered = await createConversation(t, token, { model_name: 'fake-echo', title: 'Budget questions' });
    await sendStreamed(t, token, answered.id, { content: 'first' });
    const failed = await createConversation(t, token, { model_name: 'fake-error', title: 'Broken one' });
    await sendStreamed(t, token, failed.id, { content: 'fails' });
    await t.put(`/api/chat/conversations/${answered.id}`, { title: 'Renamed budget' }, token);

    const lines = await history(token);
    const charge = lines.find((l) => l.transaction_type === 'chat_consume' && l.conversation_id === answered.id);
    expect(charge).toMatchObject({ model_name: 'fake-echo', conversation_title: 'Renamed budget', amount: -10 });
    const refunded = lines.filter((l) => l.conversation_id === failed.id).map((l) => l.transaction_type);
    expect(refunded.sort()).toEqual(['chat_consume', 'system_refund']);
    expect(lines.find((l) => l.transaction_type === 'system_reward')).toMatchObject({
      conversation_id: null,
      model_name: null,
    });
  });

  it('names the model by its current display name, in the user’s history and the admin ledger', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const conv = await createConversation(t, token, { model_name: 'fake-echo', title: 'Names' });
    await sendStreamed(t, token, conv.id, { content: 'hello' });
    const admin = (await t.loginAsAdmin()).accessToken;
    const model = await t.db
      .selectFrom('ai_models')
      .select('id')
      .where('name', '=', 'fake-echo')
      .executeTakeFirstOrThrow();
    // Renamed after the charge: the line shows the name of today, the id stays stored.
    expect((await t.put(`/api/admin/models/${model.id}`, { display_name: 'Echo Deluxe' }, admin)).status).toBe(200);

    const en = (await t.get<CreditHistoryResult>(HISTORY, token, 'en-US')).body.data.history;
    const charge = en.find((l) => l.transaction_type === 'chat_consume');
    expect(charge).toMatchObject({
      model_name: 'fake-echo',
      model_display_name: 'Echo Deluxe',
      description: 'Chat with Echo Deluxe',
    });
    const zh = (await t.get<CreditHistoryResult>(HISTORY, token, 'zh-CN')).body.data.history;
    expect(zh.find((l) => l.transaction_type === 'chat_consume')?.description).toBe('AI 对话消费（Echo Deluxe）');
    // Lines without a model keep their plain text.
    expect(en.find((l) => l.transaction_type === 'system_reward')?.description).not.toContain('Echo');

    const ledger = await t.get<{ transaction_type: string; description: string }[]>(
      `/api/admin/users/${session.user.id}/credits/history`,
      admin,
      'en-US',
    );
    expect(ledger.body.data.find((l) => l.transaction_type === 'chat_consume')?.description).toBe(
      'Chat with Echo Deluxe',
    );
    await t.put(`/api/admin/models/${model.id}`, { display_name: 'Fake Echo' }, admin);
  });

  it('once the conversation is deleted, the line keeps its model and loses the title', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const conv = await createConversation(t, token, { model_name: 'fake-echo', title: 'Short-lived' });
    await sendStreamed(t, token, conv.id, { content: 'bye' });
    expect((await t.request('DELETE', `/api/chat/conversations/${conv.id}`, { token })).status).toBe(200);
    const charge = (await history(token)).find((l) => l.transaction_type === 'chat_consume');
    expect(charge).toMatchObject({ conversation_id: conv.id, conversation_title: null, model_name: 'fake-echo' });
  });

  it('the upgrade fills older charges from their answers', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const conv = await createConversation(t, token, { model_name: 'fake-echo', title: 'Older' });
    await sendStreamed(t, token, conv.id, { content: 'before the upgrade' });
    await t.db
      .updateTable('credit_transactions')
      .set({ conversation_id: null, model_name: null })
      .where('user_id', '=', session.user.id)
      .execute();
    expect((await history(token)).find((l) => l.transaction_type === 'chat_consume')?.model_name).toBeNull();
    await fillLedgerChatContext(t.db as unknown as Kysely<unknown>);
    const charge = (await history(token)).find((l) => l.transaction_type === 'chat_consume');
    expect(charge).toMatchObject({ conversation_id: conv.id, conversation_title: 'Older', model_name: 'fake-echo' });
  });
});
