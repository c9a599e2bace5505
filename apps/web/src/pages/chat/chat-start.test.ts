import type { ChatModel, Conversation } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { defaultModel, latestConversation } from './chat-start';

const conversation = (id: string, updated_at: string, priority = 0): Conversation => ({
  id,
  title: id,
  model_name: 'm',
  system_prompt: '',
  is_pinned: false,
  context_length: 10,
  ai_temperature: 0.7,
  priority,
  message_count: 0,
  total_tokens: 0,
  last_message_at: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at,
});

const model = (name: string): ChatModel => ({
  id: name.length,
  name,
  display_name: name.toUpperCase(),
  provider: 'openai',
  credits_per_chat: 10,
  stream_enabled: true,
  image_upload_enabled: false,
  sort_order: 0,
  context_window: 128_000,
  credits_per_1k_document_tokens: 0,
});

describe('latestConversation', () => {
  it('is null without conversations', () => {
    expect(latestConversation([])).toBeNull();
  });

  it('picks the latest activity, not the first of the priority order', () => {
    const list = [
      conversation('high-priority', '2025-03-01T10:00:00.000Z', 5),
      conversation('recent', '2025-03-02T09:00:00.000Z'),
      conversation('old', '2025-02-01T00:00:00.000Z'),
    ];
    expect(latestConversation(list)?.id).toBe('recent');
  });

  it('keeps the list order on a tie and skips unreadable times', () => {
    const at = '2025-03-02T09:00:00.000Z';
    expect(latestConversation([conversation('a', at), conversation('b', at)])?.id).toBe('a');
    expect(latestConversation([conversation('bad', 'not a date'), conversation('ok', at)])?.id).toBe('ok');
    expect(latestConversation([conversation('ok', at), conversation('bad', 'not a date')])?.id).toBe('ok');
    expect(latestConversation([conversation('only', 'not a date')])?.id).toBe('only');
  });
});

describe('defaultModel', () => {
  const models = [model('first'), model('site-default'), model('third')];

  it("prefers the site's default model when the user may use it", () => {
    expect(defaultModel(models, 'site-default')?.name).toBe('site-default');
  });

  it('falls back to the first model in the list order', () => {
    expect(defaultModel(models, 'not-offered')?.name).toBe('first');
  });

  it('is null without models', () => {
    expect(defaultModel([], 'site-default')).toBeNull();
  });
});
