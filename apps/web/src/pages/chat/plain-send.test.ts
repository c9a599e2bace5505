import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatSessions } from './chat-sessions';

const api = vi.hoisted(() => ({
  sendMessage: vi.fn<(id: string, body: unknown, signal: AbortSignal) => Promise<unknown>>(),
  messages: vi.fn<(id: string) => Promise<unknown[]>>(),
  toast: vi.fn(),
}));
vi.mock('../../api/chat', () => ({ chatApi: { sendMessage: api.sendMessage, messages: api.messages } }));
vi.mock('../../api/chat-stream', () => ({
  streamChatMessage: vi.fn(),
  resumeChatAnswer: vi.fn(),
  isAbort: (error: unknown) => error instanceof DOMException && error.name === 'AbortError',
}));
vi.mock('../../i18n', () => ({ i18n: { t: (key: string) => key } }));
vi.mock('../../api/notify', () => ({ toast: api.toast }));

const { runPlainSend } = await import('./send-runner');

const ID = 'c1';
const message = (id: string, role: 'user' | 'assistant', status: 'complete' | 'streaming') => ({
  id,
  conversation_id: ID,
  role,
  content: role === 'user' ? 'hello' : '',
  files: [],
  file: null,
  created_at: '2026-01-01T00:00:00.000Z',
  tokens: 0,
  model_name: null,
  status,
  parent_id: null,
});

beforeEach(() => {
  vi.stubGlobal('window', { setTimeout, clearTimeout, addEventListener: vi.fn(), removeEventListener: vi.fn() });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

async function sendAndLoseTheConnection(serverHas: unknown[]) {
  api.sendMessage.mockRejectedValueOnce(new TypeError('network error'));
  api.messages.mockResolvedValueOnce(serverHas);
  const store = new ChatSessions();
  store.update(ID, { status: 'ready', input: '' });
  await runPlainSend({
    store,
    conversationId: ID,
    content: 'hello',
    input: 'hello',
    images: [],
    modelName: 'm',
    onSettled: vi.fn(),
  });
  return store;
}

describe('a non-streamed send whose connection is lost', () => {
  it('shows the turn the server took, still being answered, and does not put the text back', async () => {
    const store = await sendAndLoseTheConnection([
      message('q1', 'user', 'complete'),
      message('a1', 'assistant', 'streaming'),
    ]);
    expect(store.get(ID).input).toBe('');
    expect(store.get(ID).messages.map((m) => [m.id, m.status])).toEqual([
      ['q1', 'complete'],
      ['a1', 'streaming'],
    ]);
    expect(store.get(ID).phase).toBe('idle');
    expect(api.toast).not.toHaveBeenCalled();
  });

  it('puts the text back when the server never got it', async () => {
    const store = await sendAndLoseTheConnection([]);
    expect(store.get(ID).input).toBe('hello');
    expect(store.get(ID).messages).toEqual([]);
    expect(api.toast).toHaveBeenCalledWith('error', 'common:errors.network');
  });
});
