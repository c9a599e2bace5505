import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat-message';
import { createLiveText, shownText } from './live-text';

const answer = (over: Partial<ChatMessage>): ChatMessage => ({
  id: 'a1',
  conversation_id: 'c1',
  parent_id: null,
  role: 'assistant',
  content: '',
  files: [],
  file: null,
  model_name: null,
  status: 'streaming',
  tokens: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('createLiveText', () => {
  it('tells its listeners about each change, and only about changes', () => {
    const live = createLiveText();
    const seen: string[] = [];
    const stop = live.subscribe(() => seen.push(live.text()));
    live.set('Hel');
    live.set('Hel');
    live.set('Hello');
    stop();
    live.set('Hello there');
    expect(seen).toEqual(['Hel', 'Hello']);
    expect(live.text()).toBe('Hello there');
  });
});

describe('shownText', () => {
  it('is the live text while the answer streams, and its content once it has ended', () => {
    const live = createLiveText();
    live.set('partial answer');
    expect(shownText(answer({ streaming: true, live }))).toBe('partial answer');
    expect(shownText(answer({ streaming: false, live, content: 'final answer' }))).toBe('final answer');
    expect(shownText(answer({ content: 'stored answer' }))).toBe('stored answer');
  });
});
