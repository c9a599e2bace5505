import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResumeHandlers, StreamHandlers } from '../../api/chat-stream';
import { ChatSessions } from './chat-sessions';

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
