import http from 'node:http';
import https from 'node:https';
import type { ModelMessage } from 'ai';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import { RedirectRefusedError, isRedirect, redirectTarget } from './upstream-fetch.js';

/**
 * The lean relay for the OpenAI Chat Completions protocol, which OpenAI, DeepSeek, Qwen,
 * Ollama, vLLM and most self-hosted servers speak. A streamed answer is the hot path of
 * the platform: here the upstream's server-sent events go through one small parser and
 * each text delta is handed on as it arrives, with no per-chunk schema validation and no
 * chain of web streams (the SDK adapter cost about 0.6 ms of CPU per chunk and several
 * milliseconds before the first token). Other calls (titles, non-streamed answers, other
 * protocols) keep using the AI SDK.
 */

/** Where and how to reach one model's `/chat/completions`. */
export interface ChatCompletionsTarget {
  url: URL;
  modelId: string;
  /** `Authorization` and the like; the key is only held in memory. */
  headers: Readonly<Record<string, string>>;
}

export interface ChatCompletionsRequest {
  system: string | undefined;
  messages: readonly ModelMessage[];
  temperature: number;
}

export interface TokenUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
}

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

/** The request body: the SDK's messages in the Chat Completions shape, images as data URLs. */
export function chatCompletionsBody(modelId: string, req: ChatCompletionsRequest): string {
  const messages: unknown[] = req.system ? [{ role: 'system', content: req.system }] : [];
  for (const m of req.messages) {
    if (typeof m.content === 'string' || m.role === 'system') {
      messages.push({ role: m.role, content: m.content });
      continue;
    }
    const parts: unknown[] = [];
    for (const part of m.content) {
      if (part.type === 'text') parts.push({ type: 'text', text: part.text });
      else if (part.type === 'image') parts.push({ type: 'image_url', image_url: { url: imageUrl(part) } });
    }
    messages.push({ role: m.role, content: parts });
  }
  return JSON.stringify({
    model: modelId,
    messages,
    temperature: req.temperature,
    stream: true,
    // The usage chunk at the end, so tokens are counted rather than estimated.
    stream_options: { include_usage: true },
  });
}

function imageUrl(part: { image: unknown; mediaType?: string | undefined }): string {
  const { image } = part;
  if (image instanceof URL) return image.href;
  if (typeof image === 'string') return image.startsWith('data:') ? image : `data:${part.mediaType};base64,${image}`;
  const bytes = Buffer.isBuffer(image) ? image : Buffer.from(image as Uint8Array);
  return `data:${part.mediaType ?? 'image/png'};base64,${bytes.toString('base64')}`;
}

interface StreamHandlers {
  /** Text of the answer, in order, as soon as it arrives. */
  onText(text: string): void;
  /** The first sign of an answer (text or reasoning): the first-byte time limit is met. */
  onFirstByte(): void;
}

/**
 * One streamed answer. Resolves when the upstream finished (`[DONE]` or a finish reason);
 * rejects on an HTTP error, a malformed or error chunk, a connection lost mid-answer, or
 * when `signal` aborts (the socket is destroyed then, so the upstream sees the close).
 */
export async function streamChatCompletions(
  target: ChatCompletionsTarget,
  req: ChatCompletionsRequest,
  signal: AbortSignal,
  handlers: StreamHandlers,
): Promise<ChatCompletionsEnd> {
  const body = chatCompletionsBody(target.modelId, req);
  try {
    return await attempt(target, body, signal, handlers);
  } catch (err) {
    // A kept-alive socket the upstream closed just before our request reused it: nothing
    // was received, so sending again once on a fresh connection is safe.
    if (err instanceof StaleSocketError && !signal.aborted) return attempt(target, body, signal, handlers);
    throw err;
  }
}

class StaleSocketError extends Error {}

function attempt(
  target: ChatCompletionsTarget,
  body: string,
  signal: AbortSignal,
  handlers: StreamHandlers,
): Promise<ChatCompletionsEnd> {
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
        readError(res).catch(fail);
        return;
      }
      if (!String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        readWhole(res, handlers).then((end) => {
          settled = true;
          resolve(end);
        }, fail);
        return;
      }
      const answer = new AnswerEvents(handlers);
      const parser = createParser({ onEvent: (event) => answer.take(event) });
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
        const end = answer.end();
        if (end) {
          settled = true;
          resolve(end);
        } else fail(new UpstreamError('the upstream closed the stream before it finished'));
      });
    });
    request.end(body);
  });
}

/** What the events of one answer add up to. */
class AnswerEvents {
  private done = false;
  private finishReason: string | undefined;
  private usage: TokenUsage | undefined;

  constructor(private readonly handlers: StreamHandlers) {}

  take(event: EventSourceMessage): void {
    if (this.done) return;
    if (event.data === '[DONE]') {
      this.done = true;
      return;
    }
    const chunk = JSON.parse(event.data) as CompletionChunk;
    if (chunk.error) throw new UpstreamError(errorMessage(chunk.error));
    const choice = chunk.choices?.[0];
    if (choice) {
      const delta = choice.delta;
      if (delta) {
        if (typeof delta.content === 'string' && delta.content !== '') {
          this.handlers.onFirstByte();
          this.handlers.onText(delta.content);
        } else if (delta.reasoning_content || delta.reasoning) this.handlers.onFirstByte();
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    if (chunk.usage) this.usage = usageOf(chunk.usage);
  }

  /** The outcome once the stream has ended, or undefined if it ended before finishing. */
  end(): ChatCompletionsEnd | undefined {
    if (!this.done && this.finishReason === undefined) return undefined;
    return { finishReason: this.finishReason ?? 'stop', usage: this.usage };
  }
}

interface CompletionChunk {
  choices?: {
    delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
    message?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  error?: unknown;
}

const usageOf = (u: NonNullable<CompletionChunk['usage']>): TokenUsage => ({
  inputTokens: u.prompt_tokens,
  outputTokens: u.completion_tokens,
  totalTokens: u.total_tokens,
});

function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/** At most this much of an error body is read (it is only logged). */
const ERROR_BODY_LIMIT = 16 * 1024;

function readText(res: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.on('data', (chunk: string) => {
      if (text.length < limit) text += chunk;
    });
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

async function readError(res: http.IncomingMessage): Promise<never> {
  const text = await readText(res, ERROR_BODY_LIMIT);
  let message = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed.error) message = errorMessage(parsed.error);
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  throw new UpstreamError(message || `HTTP ${res.statusCode}`, res.statusCode);
}

/** A server that ignored `stream: true` and answered with one JSON body. */
async function readWhole(res: http.IncomingMessage, handlers: StreamHandlers): Promise<ChatCompletionsEnd> {
  const parsed = JSON.parse(await readText(res, 64 * 1024 * 1024)) as CompletionChunk;
  if (parsed.error) throw new UpstreamError(errorMessage(parsed.error));
  const choice = parsed.choices?.[0];
  const text = choice?.message?.content ?? '';
  if (text) {
    handlers.onFirstByte();
    handlers.onText(text);
  }
  return { finishReason: choice?.finish_reason ?? 'stop', usage: parsed.usage ? usageOf(parsed.usage) : undefined };
}
