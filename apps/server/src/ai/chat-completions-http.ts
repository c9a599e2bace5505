import http from 'node:http';
import https from 'node:https';
import { createParser } from 'eventsource-parser';
import { RedirectRefusedError, isRedirect, redirectTarget } from './upstream-fetch.js';

/**
 * The wire under both Chat Completions relays (the chat's lean relay and `/v1`'s pass-through):
 * one POST over keep-alive connections, its answer read as server-sent events through one
 * small parser, with the same refusals (redirects, HTTP errors, a stream broken off) and the
 * same single retry when a reused connection turns out stale.
 */

/** Where and how to reach one model's `/chat/completions`. */
export interface ChatCompletionsTarget {
  url: URL;
  modelId: string;
  /** `Authorization` and the like; the key is only held in memory. */
  headers: Readonly<Record<string, string>>;
}

export interface TokenUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
}

/** How a streamed answer ended. */
export interface ChatCompletionsEnd {
  finishReason: string;
  usage: TokenUsage | undefined;
}

/** An upstream refusal or a broken stream; `statusCode` when the upstream answered with an HTTP error. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

// Keep-alive connections to the upstreams, shared by every model: opening a TLS connection
// per answer would cost more than everything else on this path. Node unrefs idle pooled
// sockets, so they never hold a stopping process open.
const agentOptions = { keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 256 };
export const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

/** The usage an upstream reports, as it writes it. */
export type WireUsage = { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };

export const usageOf = (u: WireUsage): TokenUsage => ({
  inputTokens: u.prompt_tokens,
  outputTokens: u.completion_tokens,
  totalTokens: u.total_tokens,
});

/** The text of an upstream's `error` (a string, or an object with a message). */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/** The message of an HTTP error body: its JSON `error`, else the start of the text, else the status. */
export function errorOfBody(text: string, status: number | undefined): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed.error) return errorText(parsed.error);
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return text.slice(0, 500) || `HTTP ${status}`;
}

/** At most this much of an error body is read (it is only logged or quoted). */
const ERROR_BODY_LIMIT = 16 * 1024;

/** The body as text, read up to about `limit` characters. */
export function readText(res: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.on('data', (chunk: string) => {
      if (text.length < limit) text += chunk;
    });
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

/** What one relay makes of an answer's events; a fresh one for every attempt. */
export interface EventReader<T> {
  /** One event's data, in order; throwing fails the request. */
  take(data: string): void;
  /** The outcome once the stream has closed, or undefined when it closed before finishing. */
  end(): T | undefined;
  /** A successful answer that is not an event stream; unset: it is read as events all the same. */
  whole?(res: http.IncomingMessage): Promise<T>;
}

/**
 * The events of one Chat Completions answer: `[DONE]`, error chunks, the finish reason and
 * the usage read alike for every relay; what a chunk's choices mean is the relay's (`read`).
 */
export abstract class CompletionEvents<
  C extends { error?: unknown; usage?: WireUsage | null },
> implements EventReader<ChatCompletionsEnd> {
  private done = false;
  protected finishReason: string | undefined;
  protected usage: TokenUsage | undefined;

  take(data: string): void {
    if (this.done) return;
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    const chunk = JSON.parse(data) as C;
    if (chunk.error) throw new UpstreamError(errorText(chunk.error));
    this.read(chunk, data);
    if (chunk.usage) this.usage = usageOf(chunk.usage);
  }

  /** One chunk (parsed, and its text as sent); sets `finishReason` when the chunk tells one. */
  protected abstract read(chunk: C, data: string): void;

  /** The outcome once the stream has ended, or undefined if it ended before finishing. */
  end(): ChatCompletionsEnd | undefined {
    if (!this.done && this.finishReason === undefined) return undefined;
    return { finishReason: this.finishReason ?? 'stop', usage: this.usage };
  }
}

/**
 * Posts `body` and reads the answer's events. Resolves with the reader's outcome; rejects on
 * a redirect, an HTTP error (`UpstreamError` with its status and `refusal`'s message), a
 * malformed or error event, a connection lost mid-answer, or when `signal` aborts (the
 * socket is destroyed then, so the upstream sees the close).
 */
export async function postEventStream<T>(
  target: ChatCompletionsTarget,
  body: string,
  signal: AbortSignal,
  reader: () => EventReader<T>,
  refusal: (text: string, status: number | undefined) => string = errorOfBody,
): Promise<T> {
  try {
    return await attempt(target, body, signal, reader(), refusal);
  } catch (err) {
    // A kept-alive socket the upstream closed just before our request reused it: nothing
    // was received, so sending again once on a fresh connection is safe.
    if (err instanceof StaleSocketError && !signal.aborted) return attempt(target, body, signal, reader(), refusal);
    throw err;
  }
}

class StaleSocketError extends Error {}

function attempt<T>(
  target: ChatCompletionsTarget,
  body: string,
  signal: AbortSignal,
  reader: EventReader<T>,
  refusal: (text: string, status: number | undefined) => string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const client = target.url.protocol === 'https:' ? https : http;
    const request = client.request(target.url, {
      method: 'POST',
      agent: agents[target.url.protocol as 'http:' | 'https:'],
      signal,
      headers: {
        ...target.headers,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'content-length': Buffer.byteLength(body),
      },
    });
    let settled = false;
    let responded = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(err instanceof Error ? err : new UpstreamError(String(err)));
    };
    const succeed = (end: T) => {
      settled = true;
      resolve(end);
    };
    request.on('error', (err: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && err.code === 'ECONNRESET' && !responded;
      fail(stale ? new StaleSocketError(err.message) : err);
    });
    request.on('response', (res) => {
      responded = true;
      res.setEncoding('utf8');
      // http.request never follows a redirect; say plainly why the answer is refused.
      if (isRedirect(res.statusCode)) {
        res.resume();
        fail(new RedirectRefusedError(res.statusCode ?? 0, redirectTarget(res.headers.location, target.url)));
        return;
      }
      if ((res.statusCode ?? 0) >= 300) {
        readText(res, ERROR_BODY_LIMIT).then(
          (text) => fail(new UpstreamError(refusal(text, res.statusCode), res.statusCode)),
          fail,
        );
        return;
      }
      if (reader.whole && !String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        reader.whole(res).then(succeed, fail);
        return;
      }
      const parser = createParser({ onEvent: (event) => reader.take(event.data) });
      res.on('data', (chunk: string) => {
        if (settled) return;
        try {
          parser.feed(chunk);
        } catch (err) {
          fail(err);
        }
      });
      res.on('error', fail);
      // 'close' without 'end' first: the connection broke mid-answer.
      res.on('close', () => {
        if (settled) return;
        const end = reader.end();
        if (end) succeed(end);
        else fail(new UpstreamError('the upstream closed the stream before it finished'));
      });
    });
    request.end(body);
  });
}
