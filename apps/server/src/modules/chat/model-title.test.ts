import type { Conversation } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addModel, createChatApp, createConversation, sendStreamed } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { ConversationsRepo } from './conversations.repo.js';
import { cleanModelTitle } from './model-title.js';

describe('cleanModelTitle', () => {
  it('keeps the first line as plain text, without quotes, a "Title:" label or a final stop', () => {
    expect(cleanModelTitle('\n"**Baking** bread at home."\nMore text')).toBe('Baking bread at home');
    expect(cleanModelTitle('Title: Kysely migrations')).toBe('Kysely migrations');
    expect(cleanModelTitle('标题：「数据库迁移」。')).toBe('数据库迁移');
    expect(Array.from(cleanModelTitle('字'.repeat(80)))).toHaveLength(50);
    expect(cleanModelTitle('  \n ')).toBe('');
  });
});

describe('titles written by the model', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let token: string;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    await addModel(t, fake, { name: 'plain-model' });
    token = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  const titleOf = async (id: string) =>
    (await t.get<Conversation>(`/api/chat/conversations/${id}`, token)).body.data.title;

  it('is off by default: the title is the first question, and the model is asked nothing more', async () => {
    const conv = await createConversation(t, token, { model_name: 'plain-model' });
    fake.requests.length = 0;
    await sendStreamed(t, token, conv.id, { content: 'How do I bake **bread**?' });
    expect(await titleOf(conv.id)).toBe('How do I bake bread?');
    expect(fake.requests).toHaveLength(1);
  });

  it('when on, asks the model for a title of the first question and stores it before the answer ends', async () => {
    await t.setSetting('ai', { model_titles: true });
    try {
      const conv = await createConversation(t, token, { model_name: 'plain-model' });
      fake.requests.length = 0;
      await sendStreamed(t, token, conv.id, { content: 'Which flour for sourdough?' });
      // The fake model echoes: its "title" is the echo of the question.
      expect(await titleOf(conv.id)).toBe('Echo: Which flour for sourdough?');
      expect(fake.requests).toHaveLength(2);
      // Later turns keep the title.
      await sendStreamed(t, token, conv.id, { content: 'And the water?' });
      expect(await titleOf(conv.id)).toBe('Echo: Which flour for sourdough?');
      expect(fake.requests).toHaveLength(3);

      // A conversation created with a title keeps it.
      const named = await createConversation(t, token, { model_name: 'plain-model', title: 'My own' });
      await sendStreamed(t, token, named.id, { content: 'anything' });
      expect(await titleOf(named.id)).toBe('My own');
    } finally {
      await t.setSetting('ai', {});
    }
  });

  it('never overwrites a title changed meanwhile', async () => {
    const conv = await createConversation(t, token, { model_name: 'plain-model' });
    const repo = new ConversationsRepo(t.db);
    await t.put(`/api/chat/conversations/${conv.id}`, { title: 'Renamed' }, token);
    await repo.replaceTitle(conv.id, '', 'From the model');
    expect(await titleOf(conv.id)).toBe('Renamed');
  });
});
