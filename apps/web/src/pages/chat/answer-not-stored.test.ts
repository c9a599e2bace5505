import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResumeHandlers, StreamHandlers } from '../../api/chat-stream';
import { ApiError } from '../../api/api-error';
import { ChatSessions } from './chat-sessions';

const api = vi.hoisted(() => ({
  stream: vi.fn<(id: string, body: unknown, handlers: StreamHandlers, signal: AbortSignal) => Promise<void>>(),
  resume: vi.fn<(id: string, handlers: ResumeHandlers, signal: AbortSignal) => Promise<boolean>>(),
  sendMessage: vi.fn<(id: string, body: unknown, signal: AbortSignal) => Promise<unknown>>(),
  messages: vi.fn<(id: string) => Promise<unknown[]>>(),
  toast: vi.fn(),
}));
vi.mock('../../api/chat-stream', () => ({
  streamChatMessage: api.stream,
  resumeChatAnswer: api.resume,
  isAbort: (error: unknown) => error instanceof DOMException && error.name === 'AbortError',
}));
vi.mock('../../i18n', () => ({ i18n: { t: (key: string) => key } }));
vi.mock('../../api/chat', () => ({ chatApi: { messages: api.messages, sendMessage: api.sendMessage } }));
vi.mock('../../api/notify', () => ({ toast: api.toast }));

const { runPlainSend, runStreamSend } = await import('./send-runner');

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
/** What the server stored: the text another server kept, shorter than the one streamed here. */
const stored = [
  question,
  { ...question, id: 'a1', role: 'assistant' as const, content: 'Echo: hel', status: 'error' as const },
];
const ELSEWHERE = 'Finished elsewhere; the conversation shows the text kept';
const endedElsewhere = () => new ApiError(ELSEWHERE, { kind: 'http', status: 409, code: 'ANSWER_ENDED_ELSEWHERE' });
const job = (store: ChatSessions) => ({
  store,
  conversationId: ID,
  content: 'hello',
  input: 'hello',
  images: [],
  modelName: 'm',
  onSettled: vi.fn(),
});

beforeEach(() => {
  vi.stubGlobal('window', { setTimeout, clearTimeout, addEventListener: vi.fn(), removeEventListener: vi.fn() });
  vi.stubGlobal('navigator', { onLine: true });
  vi.stubGlobal('requestAnimationFrame', (fn: () => void) => setTimeout(fn, 0));
  vi.stubGlobal('cancelAnimationFrame', (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle));
  api.messages.mockResolvedValue(stored);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('an answer the server could not store as streamed', () => {
  it('says why and shows the stored text in place of the one streamed', async () => {
    api.stream.mockImplementation((_id, _body, handlers) => {
      handlers.onInit({
        user_message: question,
        ai_message_id: 'a1',
        credits_info: { credits_consumed: 10, credits_remaining: 990, model_credits_per_chat: 10 },
      });
      handlers.onDelta('Echo: hello, world');
      return Promise.reject(endedElsewhere());
    });
    const store = new ChatSessions();
    store.update(ID, { status: 'ready' });

    await runStreamSend(job(store));
    expect(api.toast).toHaveBeenCalledWith('warning', ELSEWHERE);
    await vi.waitFor(() => expect(store.get(ID).messages.at(-1)).toMatchObject({ id: 'a1', content: 'Echo: hel' }), {
      timeout: 3000,
    });
    expect(store.get(ID).input).toBe('');
  });

  it('an upstream error mid-answer stays quiet, as before', async () => {
    api.stream.mockImplementation((_id, _body, handlers) => {
      handlers.onInit({
        user_message: question,
        ai_message_id: 'a1',
        credits_info: { credits_consumed: 10, credits_remaining: 990, model_credits_per_chat: 10 },
      });
      handlers.onDelta('Echo: hel');
      return Promise.reject(new ApiError('upstream', { kind: 'http', status: 502, code: 'UPSTREAM_ERROR' }));
    });
    const store = new ChatSessions();
    store.update(ID, { status: 'ready' });
    await runStreamSend(job(store));
    expect(api.toast).not.toHaveBeenCalled();
    expect(store.get(ID).messages.at(-1)).toMatchObject({ content: 'Echo: hel', status: 'error' });
  });

  it('non-streamed: reads the stored answer back instead of putting the question back in the box', async () => {
    api.sendMessage.mockRejectedValueOnce(endedElsewhere());
    const store = new ChatSessions();
    store.update(ID, { status: 'ready', input: '' });
    await runPlainSend(job(store));
    expect(api.toast).toHaveBeenCalledWith('warning', ELSEWHERE);
    await vi.waitFor(() => expect(store.get(ID).messages.map((m) => m.content)).toEqual(['hello', 'Echo: hel']), {
      timeout: 3000,
    });
    expect(store.get(ID).input).toBe('');
  });
});
