import { afterEach, describe, expect, it, vi } from 'vitest';
import { readStreamEvent } from './chat-events';
import { type SseMessage, SseParser } from './chat-sse';

const STREAM = [
  ': heartbeat',
  '',
  'event: connected',
  'data: {"status":"connected"}',
  '',
  'event: message',
  'data: {"delta":"你好，"}',
  '',
  ': heartbeat',
  'event: message',
  'data: {"delta":"world 🌍"}',
  '',
  'event: done',
  'data: {"content":"你好，world 🌍","messageId":"m2","tokens":7,"finish_reason":"stop"}',
  '',
  '',
].join('\n');

const EXPECTED: SseMessage[] = [
  { event: 'connected', data: '{"status":"connected"}' },
  { event: 'message', data: '{"delta":"你好，"}' },
  { event: 'message', data: '{"delta":"world 🌍"}' },
  {
    event: 'done',
    data: '{"content":"你好，world 🌍","messageId":"m2","tokens":7,"finish_reason":"stop"}',
  },
];

function parseInChunks(bytes: Uint8Array, sizes: (i: number) => number): SseMessage[] {
  const parser = new SseParser();
  const out: SseMessage[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes(i));
    out.push(...parser.pushBytes(bytes.subarray(at, at + size)));
    at += size;
  }
  out.push(...parser.end());
  return out;
}

describe('SseParser', () => {
  const bytes = new TextEncoder().encode(STREAM);

  it('parses a whole stream, skipping comment lines', () => {
    expect(parseInChunks(bytes, () => bytes.length)).toEqual(EXPECTED);
  });

  it('gives the same events whatever the byte boundaries, even inside UTF-8 sequences', () => {
    for (const size of [1, 2, 3, 5, 7, 13, 64]) {
      expect(
        parseInChunks(bytes, () => size),
        `chunks of ${size}`,
      ).toEqual(EXPECTED);
    }
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return 1 + (seed % 11);
    };
    for (let run = 0; run < 50; run++) expect(parseInChunks(bytes, random)).toEqual(EXPECTED);
  });

  it('accepts CRLF and CR line breaks, also when a CRLF is split between chunks', () => {
    const crlf = new TextEncoder().encode(STREAM.replaceAll('\n', '\r\n'));
    const cr = new TextEncoder().encode(STREAM.replaceAll('\n', '\r'));
    for (const size of [1, 2, 3, 100]) {
      expect(parseInChunks(crlf, () => size)).toEqual(EXPECTED);
      expect(parseInChunks(cr, () => size)).toEqual(EXPECTED);
    }
  });

  it('joins multi-line data with newlines and strips one leading space only', () => {
    const parser = new SseParser();
    const events = parser.pushText('event: message\ndata: line one\ndata:  two\ndata\ndata:three\n\n');
    expect(events).toEqual([{ event: 'message', data: 'line one\n two\n\nthree' }]);
  });

  it('defaults the event type to message and ignores events without data', () => {
    const parser = new SseParser();
    expect(parser.pushText('event: ping\n\ndata: x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('ignores id and retry fields and drops an unterminated event at the end', () => {
    const parser = new SseParser();
    expect(parser.pushText('id: 1\nretry: 10\nevent: done\ndata: {}\n')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});

describe('readStreamEvent', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads the known events', () => {
    expect(readStreamEvent({ event: 'message', data: '{"delta":"a"}' })).toEqual({
      event: 'message',
      data: { delta: 'a' },
    });
    const init = {
      user_message: { id: 'u1', role: 'user', content: 'hi', created_at: '2026-01-01T00:00:00Z' },
      ai_message_id: 'a1',
      credits_info: { credits_consumed: 10, credits_remaining: 90, model_credits_per_chat: 10 },
    };
    expect(readStreamEvent({ event: 'init', data: JSON.stringify(init) })?.event).toBe('init');
    const error = { code: 502, error: 'UPSTREAM_ERROR', message: 'boom' };
    expect(readStreamEvent({ event: 'error', data: JSON.stringify(error) })).toEqual({ event: 'error', data: error });
  });

  it('only warns about unknown event types and malformed data', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(readStreamEvent({ event: 'usage', data: '{}' })).toBeNull();
    expect(readStreamEvent({ event: 'message', data: 'not json' })).toBeNull();
    expect(readStreamEvent({ event: 'done', data: '{"content":"x"}' })).toBeNull();
    expect(warn).toHaveBeenCalledTimes(3);
    expect(String(warn.mock.calls[0]?.[0])).toContain('usage');
  });
});
