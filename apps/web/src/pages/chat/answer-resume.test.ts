import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResumeHandlers, StreamHandlers } from '../../api/chat-stream';
import { type ChatMessage, ChatSessions } from './chat-sessions';

const api = vi.hoisted(() => ({
  stream: vi.fn<(id: string, body: unknown, handlers: StreamHandlers, signal: AbortSignal) => Promise<void>>(),
  resume: vi.fn<(id: string, handlers: ResumeHandlers, signal: AbortSignal) => Promise<boolean>>(),
  messages: vi.fn(() => Promise.resolve([])),
}));
vi.mock('../../api/chat-stream', () => ({
  streamChatMessage: api.stream,
  resumeChatAnswer: api.resume,
  isAbort: (error: unknown) => error instanceof DOMException && error.name === 'AbortError',
}));
vi.mock('../../i18n', () => ({ i18n: { t: (key: string) => key } }));
vi.mock('../../api/chat', () => ({ chatApi: { messages: api.messages } }));
vi.mock('../../api/notify', () => ({ toast: vi.fn() }));

const { runStreamSend } = await import('./send-runner');
const { resumeOpenAnswer } = await import('./answer-resume');

const ID = 'c1';
const question = {
  id: 'q1',
  conversation_id: ID,
  role: 'user' as const,
  content: 'hello',
  files: [],
  file: null,
  created_at: '2026-01-01T00:00:00.000Z',
  tokens: 1,
  model_name: null,
  status: 'complete' as const,
  parent_id: null,
};
const done = (content: string) => ({ content, messageId: 'a1', tokens: 5, finish_reason: 'stop' as const });

beforeEach(() => {
  vi.stubGlobal('window', { setTimeout, clearTimeout, addEventListener: vi.fn(), removeEventListener: vi.fn() });
  vi.stubGlobal('navigator', { onLine: true });
  vi.stubGlobal('requestAnimationFrame', (fn: () => void) => setTimeout(fn, 0));
  vi.stubGlobal('cancelAnimationFrame', (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('an answer whose connection is lost', () => {
  it('is attached to again instead of failing, and ends with the whole text', async () => {
    api.stream.mockImplementation((_id, _body, handlers) => {
      handlers.onInit({
        user_message: question,
        ai_message_id: 'a1',
        credits_info: { credits_consumed: 10, credits_remaining: 990, model_credits_per_chat: 10 },
      });
      handlers.onDelta('Echo: hel');
      return Promise.reject(new TypeError('network error'));
    });
    // The first attempt to attach fails too (still offline a moment), the second succeeds.
    api.resume.mockRejectedValueOnce(new TypeError('network error')).mockImplementationOnce((_id, handlers) => {
      handlers.onResume({ message_id: 'a1', content: 'Echo: hello, wo' });
      handlers.onDelta('rld');
      handlers.onDone(done('Echo: hello, world'));
      return Promise.resolve(true);
    });
    const store = new ChatSessions();
    store.update(ID, { status: 'ready' });
    const onSettled = vi.fn();

    await runStreamSend({
      store,
      conversationId: ID,
      content: 'hello',
      input: 'hello',
      images: [],
      modelName: 'm',
      onSettled,
    });

    expect(api.resume).toHaveBeenCalledTimes(2);
    const answer = store.get(ID).messages.at(-1);
    expect(answer).toMatchObject({ id: 'a1', status: 'complete', content: 'Echo: hello, world', streaming: false });
    expect(store.get(ID).phase).toBe('idle');
    expect(onSettled).toHaveBeenCalledWith(990);
  });
});

describe('a conversation opened while its last answer is written', () => {
  it('shows the text so far, then the rest, with the Stop button', async () => {
    let handlers: ResumeHandlers | undefined;
    let finish: (found: boolean) => void = () => undefined;
    api.resume.mockImplementationOnce((_id, h) => {
      handlers = h;
      return new Promise((resolve) => (finish = resolve));
    });
    const store = new ChatSessions();
    const answer = { ...question, id: 'a1', role: 'assistant' as const, content: 'Echo', status: 'streaming' as const };
    store.update(ID, { status: 'ready', messages: [question, answer] });
    const onEnd = vi.fn();

    expect(resumeOpenAnswer(store, ID, onEnd)).toBe(true);
    // The composer shows Stop while the phase is not idle.
    expect(store.get(ID).phase).toBe('streaming');
    const live = store.get(ID).messages.at(-1)?.live;
    expect(live?.text()).toBe('Echo');

    handlers?.onResume({ message_id: 'a1', content: 'Echo: he' });
    handlers?.onDelta('llo');
    handlers?.onDone(done('Echo: hello'));
    finish(true);
    await vi.waitFor(() => expect(onEnd).toHaveBeenCalledWith('ended', 'a1'));
    expect(store.get(ID).messages.at(-1)).toMatchObject({ status: 'complete', content: 'Echo: hello' });
    expect(store.get(ID).phase).toBe('idle');
  });

  it('is stopped by the Stop button, keeping the text so far', async () => {
    api.resume.mockImplementationOnce((_id, h, signal) => {
      h.onResume({ message_id: 'a1', content: 'Echo: he' });
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    });
    const store = new ChatSessions();
    const answer = { ...question, id: 'a1', role: 'assistant' as const, content: 'Echo', status: 'streaming' as const };
    store.update(ID, { status: 'ready', messages: [question, answer] });
    const onEnd = vi.fn();
    resumeOpenAnswer(store, ID, onEnd);
    await vi.waitFor(() => expect(store.get(ID).messages.at(-1)?.live?.text()).toBe('Echo: he'));

    expect(store.abort(ID)).toBe(true);
    await vi.waitFor(() => expect(onEnd).toHaveBeenCalledWith('ended', 'a1'));
    expect(store.get(ID).messages.at(-1)).toMatchObject({ status: 'stopped', content: 'Echo: he', streaming: false });
    expect(store.get(ID).phase).toBe('idle');
  });

  it('leaves alone an answer that is not being written', () => {
    const store = new ChatSessions();
    const answer = { ...question, id: 'a1', role: 'assistant' as const, content: 'Echo', status: 'complete' as const };
    store.update(ID, { status: 'ready', messages: [question, answer] });
    expect(resumeOpenAnswer(store, ID, vi.fn())).toBe(false);
    expect(api.resume).not.toHaveBeenCalled();
  });
});

describe('a resume of an answer this page does not show', () => {
  it('is not followed: the shown answer keeps its id and the branch is read back', async () => {
    api.resume.mockImplementationOnce((_id, h, signal) => {
      h.onResume({ message_id: 'other', content: 'Echo: another version' });
      h.onDelta(' grows');
      return new Promise((_resolve, reject) => {
        if (signal.aborted) reject(new DOMException('aborted', 'AbortError'));
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    });
    const readBack = [question, { ...question, id: 'a2', role: 'assistant' as const, content: 'Echo: hello' }];
    api.messages.mockImplementationOnce(() => Promise.resolve(readBack as never));
    const store = new ChatSessions();
    const answer = { ...question, id: 'a1', role: 'assistant' as const, content: 'Echo', status: 'streaming' as const };
    store.update(ID, { status: 'ready', messages: [question, answer] });
    const onEnd = vi.fn();

    resumeOpenAnswer(store, ID, onEnd);
    const live = store.get(ID).messages.at(-1)?.live;
    await vi.waitFor(() => expect(onEnd).toHaveBeenCalledWith('ended', 'a1'));
    expect(store.get(ID).messages.map((m) => m.id)).not.toContain('other');
    // Nothing of the other answer's text was shown in this one.
    expect(live?.text()).toBe('Echo');
    await vi.waitFor(() => expect(store.get(ID).messages.map((m) => m.id)).toEqual(['q1', 'a2']));
    expect(api.messages).toHaveBeenCalledWith(ID);
  });
});

describe('an ordinary send', () => {
  const answered = { ...question, id: 'a1', role: 'assistant' as const, content: 'Echo: hello' };
  async function sentParent(messages: ChatMessage[]) {
    api.stream.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
    const store = new ChatSessions();
    store.update(ID, { status: 'ready', messages });
    await runStreamSend({
      store,
      conversationId: ID,
      content: 'next',
      input: 'next',
      images: [],
      modelName: 'm',
      onSettled: vi.fn(),
    });
    return (api.stream.mock.calls.at(-1)?.[1] as { parent_id?: string | null }).parent_id;
  }
  function failedAnswer() {
    const failure = { message: 'no answer', questionId: 'q1', content: 'hello', images: [] };
    return { ...answered, id: 'refunded', status: 'error' as const, failure };
  }

  it('names the last message shown, as the branch this page shows may not be the stored one', async () => {
    expect(await sentParent([question, answered])).toBe('a1');
  });

  it('names the question when the answer shown was a failure the server did not keep', async () => {
    expect(await sentParent([question, failedAnswer()])).toBe('q1');
  });

  it('names null for the first question of a new chat', async () => {
    expect(await sentParent([])).toBeNull();
  });
});
