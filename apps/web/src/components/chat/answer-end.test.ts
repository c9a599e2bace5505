import { describe, expect, it } from 'vitest';
import { canContinue } from './answer-end';
import type { ChatMessage } from './chat-message';

const answer = (patch: Partial<ChatMessage>): ChatMessage => ({
  id: 'a1',
  conversation_id: 'c1',
  parent_id: null,
  role: 'assistant',
  content: 'Some text',
  files: [],
  file: null,
  created_at: '2026-01-01T00:00:00.000Z',
  tokens: 3,
  model_name: 'm',
  status: 'complete',
  ...patch,
});

describe('canContinue', () => {
  it('offers "continue" for an answer cut off, stopped or interrupted after some text', () => {
    expect(canContinue(answer({ finishReason: 'length' }))).toBe(true);
    expect(canContinue(answer({ status: 'stopped' }))).toBe(true);
    expect(canContinue(answer({ status: 'error' }))).toBe(true);
  });

  it('not for a finished answer, one still streaming, an empty one, a failure or a question', () => {
    expect(canContinue(answer({}))).toBe(false);
    expect(canContinue(answer({ finishReason: 'stop' }))).toBe(false);
    expect(canContinue(answer({ status: 'stopped', streaming: true }))).toBe(false);
    expect(canContinue(answer({ status: 'error', content: '' }))).toBe(false);
    expect(
      canContinue(answer({ status: 'error', failure: { message: 'x', questionId: 'q', content: 'q', images: [] } })),
    ).toBe(false);
    expect(canContinue(answer({ role: 'user', status: 'stopped' }))).toBe(false);
  });
});
