import type { StreamEvent } from '@aiplatform/contracts';
import type { SseMessage } from './chat-sse';

/*
 * The contract's zod schemas would bring zod into the browser, so the chat events are
 * checked by hand: just enough that the handlers can trust the fields they read.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function isMessageShape(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value.id) &&
    (value.role === 'user' || value.role === 'assistant') &&
    isString(value.content) &&
    isString(value.created_at)
  );
}

function isValid(event: string, data: Json): boolean {
  switch (event) {
    case 'connected':
      return true;
    case 'init':
      return isMessageShape(data.user_message) && isString(data.ai_message_id) && isObject(data.credits_info);
    case 'resume':
      return isString(data.message_id) && isString(data.content);
    case 'message':
      return isString(data.delta);
    case 'done':
      return isString(data.content) && isString(data.messageId) && isNumber(data.tokens);
    case 'error':
      return isString(data.error) && isString(data.message);
    default:
      return false;
  }
}

const KNOWN_EVENTS = new Set(['connected', 'init', 'resume', 'message', 'done', 'error']);

/**
 * Turns a parsed server-sent event into a chat stream event. Unknown event types and
 * malformed data are only reported on the console and yield `null`.
 */
export function readStreamEvent(message: SseMessage): StreamEvent | null {
  if (!KNOWN_EVENTS.has(message.event)) {
    console.warn(`Ignoring unknown chat stream event "${message.event}"`);
    return null;
  }
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    console.warn(`Ignoring chat stream event "${message.event}" with unreadable data`);
    return null;
  }
  if (!isObject(data) || !isValid(message.event, data)) {
    console.warn(`Ignoring chat stream event "${message.event}" with unexpected data`, data);
    return null;
  }
  return { event: message.event, data } as StreamEvent;
}
