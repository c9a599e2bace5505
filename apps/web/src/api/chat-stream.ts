import { type CallBody, type CallSpec, type StreamEvent, callPath } from '@aiplatform/contracts';
// Methods and paths only (see call.ts): the table's schemas stay out of the bundle.
import CALL_ROUTES from 'virtual:call-routes';
import { currentLanguage, i18n } from '../i18n';
import { useAuthStore } from '../stores/auth-store';
import { ApiError } from './api-error';
import { capAwareMessage } from './cap-text';
import { readStreamEvent } from './chat-events';
import { SseParser } from './chat-sse';
import { refreshAccessToken } from './refresh';
import { createRequestId } from './request-policy';
import { accountDisabled, endSession } from './session-end';

type EventOf<K extends StreamEvent['event']> = Extract<StreamEvent, { event: K }>['data'];

/** What a streamed answer reports, in order: init, deltas, then done (or a thrown error). */
export interface StreamHandlers {
  onInit(data: EventOf<'init'>): void;
  onDelta(delta: string): void;
  onDone(data: EventOf<'done'>): void;
}

/** What an answer attached to again reports: the text so far, deltas, then done (or a thrown error). */
export interface ResumeHandlers {
  onResume(data: EventOf<'resume'>): void;
  onDelta(delta: string): void;
  onDone(data: EventOf<'done'>): void;
}

type Handlers = Partial<StreamHandlers & ResumeHandlers>;

const streamHeaders = (token: string) => ({
  Authorization: `Bearer ${token}`,
  Accept: 'text/event-stream',
  'Accept-Language': currentLanguage(),
  'X-Request-Id': createRequestId(),
});

/**
 * A turn as the page posts it: the question (a send's body; its stream options are this
 * module's), or with `regenerateOf` the stored question whose answer is written again.
 */
export type TurnBody = Omit<CallBody<'sendMessage'>, 'stream' | 'stream_options'> & { regenerateOf?: string };

// Deltas only: the cost of the answer stays linear in its length.
const STREAMED = { stream: true, stream_options: { delta_only: true } } as const;

/** Where and what a turn posts: a send, or the regenerate call of a stored question. */
function turnRequest(
  conversationId: string,
  turn: TurnBody,
): { spec: Pick<CallSpec, 'method' | 'path'>; path: string; body: unknown } {
  const { regenerateOf, ...question } = turn;
  if (regenerateOf) {
    const body: CallBody<'regenerateAnswer'> = STREAMED;
    const spec = CALL_ROUTES.regenerateAnswer;
    return { spec, path: callPath(spec.path, { id: conversationId, messageId: regenerateOf }), body };
  }
  const body: CallBody<'sendMessage'> = { ...question, ...STREAMED };
  const spec = CALL_ROUTES.sendMessage;
  return { spec, path: callPath(spec.path, { id: conversationId }), body };
}

function post(conversationId: string, turn: TurnBody, token: string, signal: AbortSignal): Promise<Response> {
  const { spec, path, body } = turnRequest(conversationId, turn);
  return fetch(`/api${path}`, {
    method: spec.method,
    headers: { ...streamHeaders(token), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

/** The server's error envelope as an ApiError; `request failed: {status}` when it sent none. */
async function failure(response: Response): Promise<ApiError> {
  let body: { message?: unknown; error?: unknown; data?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON (e.g. a proxy's error page): the status alone has to do.
  }
  const serverText =
    typeof body.message === 'string' && body.message.trim()
      ? body.message
      : i18n.t('chat:errors.requestFailed', { status: response.status });
  const code = typeof body.error === 'string' ? body.error : undefined;
  const data = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : undefined;
  const message = capAwareMessage(i18n.t, currentLanguage(), code, data, serverText);
  return new ApiError(message, {
    kind: 'http',
    status: response.status,
    ...(typeof body.error === 'string' ? { code: body.error } : {}),
    ...(body.data && typeof body.data === 'object' ? { data: body.data as Record<string, unknown> } : {}),
  });
}

/** The answer still being written in a conversation, from the text so far (deltas only, as a send). */
function get(conversationId: string, token: string, signal: AbortSignal): Promise<Response> {
  return fetch(`/api/chat/conversations/${encodeURIComponent(conversationId)}/stream?delta_only=true`, {
    headers: streamHeaders(token),
    signal,
  });
}

/** Opens the stream; a 401 refreshes the access token once (shared with the API client) and retries. */
async function open(request: (token: string) => Promise<Response>): Promise<Response> {
  const token = useAuthStore.getState().accessToken;
  if (!token) throw new ApiError(i18n.t('chat:errors.notAuthenticated'), { kind: 'session' });
  let response = await request(token);
  if (response.status === 401) {
    const fresh = await refreshAccessToken();
    response = await request(fresh);
    if (response.status === 401) {
      const text = i18n.t('auth:session.expired');
      endSession(text);
      throw new ApiError(text, { kind: 'session', status: 401, notified: true });
    }
  }
  if (!response.ok) {
    const error = await failure(response);
    if (error.code === 'ACCOUNT_DISABLED') {
      // The send is refused before its turn began: the question goes back into the text box.
      accountDisabled(error.message);
      error.notified = true;
    }
    throw error;
  }
  return response;
}

/** Returns true once the answer is complete. */
function dispatch(event: StreamEvent, handlers: Handlers): boolean {
  switch (event.event) {
    case 'connected':
      return false;
    case 'init':
      handlers.onInit?.(event.data);
      return false;
    case 'resume':
      handlers.onResume?.(event.data);
      return false;
    case 'message':
      // A server that ignores `delta_only` still sends the delta beside the full text.
      handlers.onDelta?.(event.data.delta);
      return false;
    case 'done':
      handlers.onDone?.(event.data);
      return true;
    case 'error':
      throw new ApiError(event.data.message || i18n.t('chat:send.failed'), { kind: 'http', code: event.data.error });
  }
}

/**
 * Sends a message in stream mode (POST with a body, so fetch rather than EventSource)
 * and feeds the events to `handlers` as they arrive. Rejects on HTTP errors, a stream
 * `error` event, a stream that ends without `done`, and on abort (an `AbortError`).
 */
export async function streamChatMessage(
  conversationId: string,
  turn: TurnBody,
  handlers: StreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  await readEvents(await open((token) => post(conversationId, turn, token, signal)), handlers);
}

/**
 * Attaches to the answer the server is still writing in a conversation (after a reload or
 * a lost connection). Resolves false at once when none is (204), true after `done`; rejects
 * as `streamChatMessage` does.
 */
export async function resumeChatAnswer(
  conversationId: string,
  handlers: ResumeHandlers,
  signal: AbortSignal,
): Promise<boolean> {
  const response = await open((token) => get(conversationId, token, signal));
  if (response.status === 204) return false;
  await readEvents(response, handlers);
  return true;
}

async function readEvents(response: Response, handlers: Handlers): Promise<void> {
  if (!response.body) throw new ApiError(i18n.t('chat:errors.streamEnded'), { kind: 'format' });
  const reader = response.body.getReader();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const messages = done ? parser.end() : parser.pushBytes(value);
      for (const message of messages) {
        const event = readStreamEvent(message);
        if (event && dispatch(event, handlers)) return;
      }
      if (done) throw new ApiError(i18n.t('chat:errors.streamEnded'), { kind: 'format' });
    }
  } finally {
    reader.releaseLock();
    // Whatever follows `done` (or an error) is of no interest; free the connection.
    response.body.cancel().catch(() => undefined);
  }
}

/** True for the rejection caused by aborting the stream or a pending request. */
export function isAbort(error: unknown): boolean {
  if (error instanceof DOMException && error.name === 'AbortError') return true;
  return error instanceof ApiError && error.kind === 'cancelled';
}
