import http from 'node:http';
import https from 'node:https';
import { createParser } from 'eventsource-parser';
import { type ChatCompletionsTarget, type TokenUsage, UpstreamError, agents } from './chat-completions.js';
import { RedirectRefusedError, isRedirect, redirectTarget, upstreamFetch } from './upstream-fetch.js';

/**
 * Chat Completions requests passed through as the client wrote them (`/v1`): tools,
 * response formats, sampling settings and the like reach the upstream untouched, and its
 * chunks (tool-call deltas included) come back as they were sent, over the same
 * keep-alive connections as the chat's lean relay. Only the model is the configured one,
 * and a stream always asks for the usage chunk, so tokens are counted, not estimated.
 */

/** One chunk as relayed: its JSON text, and what the accounting reads from it. */
export interface PassedChunk {
  data: string;
  /** Text, a tool or function call, or reasoning: the model produced something. */
  produced: boolean;
  /** The content text it adds (for an estimate when no usage is reported). */
  text: string;
  /** A usage-only chunk (no choices): relayed only to clients that asked for it. */
  usageOnly: boolean;
}

export interface PassThroughEnd {
  finishReason: string;
  usage: TokenUsage | undefined;
}

interface ChunkShape {
  choices?: {
    delta?: {
      content?: unknown;
      tool_calls?: unknown;
      function_call?: unknown;
      reasoning_content?: unknown;
      reasoning?: unknown;
      refusal?: unknown;
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  error?: unknown;
}

const usageOf = (u: NonNullable<ChunkShape['usage']>): TokenUsage => ({
  inputTokens: u.prompt_tokens,
  outputTokens: u.completion_tokens,
  totalTokens: u.total_tokens,
});

const filled = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * Streams one request. `onChunk` gets every chunk in order; resolves on `[DONE]` (or a
 * finish reason when the stream closes), rejects on an HTTP error (`UpstreamError` with
 * its status), an error chunk, a connection lost mid-answer, or `signal` aborting.
 */
export function streamPassThrough(
  target: ChatCompletionsTarget,
  body: Record<string, unknown>,
  signal: AbortSignal,
  onChunk: (chunk: PassedChunk) => void,
): Promise<PassThroughEnd> {
  const payload = JSON.stringify({
    ...body,
    model: target.modelId,
    stream: true,
    stream_options: { ...(body.stream_options as object | undefined), include_usage: true },
  });
  // A kept-alive socket the upstream closed just before reuse: nothing was received, so
  // sending once more on a fresh connection is safe.
  return attempt(target, payload, signal, onChunk).catch((err: unknown) => {
    if (err instanceof StaleSocketError && !signal.aborted) return attempt(target, payload, signal, onChunk);
    throw err;
  });
}

class StaleSocketError extends Error {}

function attempt(
  target: ChatCompletionsTarget,
  payload: string,
  signal: AbortSignal,
  onChunk: (chunk: PassedChunk) => void,
): Promise<PassThroughEnd> {
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
        'content-length': Buffer.byteLength(payload),
      },
    });
    let settled = false;
    let done = false;
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(err instanceof Error ? err : new UpstreamError(String(err)));
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve({ finishReason: finishReason ?? 'stop', usage });
    };
    const take = (data: string) => {
      if (done) return;
      if (data === '[DONE]') {
        done = true;
        return;
      }
      const chunk = JSON.parse(data) as ChunkShape;
      if (chunk.error) throw new UpstreamError(errorText(chunk.error));
      let produced = false;
      let text = '';
      for (const choice of chunk.choices ?? []) {
        const d = choice.delta;
        if (d) {
          if (typeof d.content === 'string') text += d.content;
          produced ||=
            filled(d.content) ||
            filled(d.tool_calls) ||
            filled(d.function_call) ||
            filled(d.reasoning_content) ||
            filled(d.reasoning) ||
            filled(d.refusal);
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
      if (chunk.usage) usage = usageOf(chunk.usage);
      onChunk({ data, produced, text, usageOnly: !!chunk.usage && (chunk.choices ?? []).length === 0 });
    };
    let responded = false;
    request.on('error', (err: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && err.code === 'ECONNRESET' && !responded;
      fail(stale ? new StaleSocketError(err.message) : err);
    });
    request.on('response', (res) => {
      responded = true;
      res.setEncoding('utf8');
      if (isRedirect(res.statusCode)) {
        res.resume();
        fail(new RedirectRefusedError(res.statusCode ?? 0, redirectTarget(res.headers.location, target.url)));
        return;
      }
      if ((res.statusCode ?? 0) >= 300) {
        readAll(res).then((text) => fail(new UpstreamError(errorOfBody(text, res.statusCode), res.statusCode)), fail);
        return;
      }
      const parser = createParser({ onEvent: (event) => take(event.data) });
      res.on('data', (piece: string) => {
        if (settled) return;
        try {
          parser.feed(piece);
        } catch (err) {
          fail(err);
        }
      });
      res.on('error', fail);
      res.on('close', () => {
        if (done || finishReason !== undefined) finish();
        else fail(new UpstreamError('the upstream closed the stream before it finished'));
      });
    });
    request.end(payload);
  });
}

/** The whole answer of a request with `stream: false`, as the upstream wrote it. */
export async function completePassThrough(
  target: ChatCompletionsTarget,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const res = await upstreamFetch(target.url, {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, model: target.modelId, stream: false }),
    signal,
  });
  const text = await res.text();
  if (!res.ok) throw new UpstreamError(errorOfBody(text, res.status), res.status);
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (parsed.error) throw new UpstreamError(errorText(parsed.error));
  return parsed;
}

/** Whether a whole answer holds any output: text, a tool or function call, or a refusal. */
export function answerProduced(answer: Record<string, unknown>): { produced: boolean; text: string } {
  const choices = (Array.isArray(answer.choices) ? answer.choices : []) as {
    message?: { content?: unknown; tool_calls?: unknown; function_call?: unknown; refusal?: unknown };
  }[];
  let text = '';
  let produced = false;
  for (const c of choices) {
    const m = c.message;
    if (!m) continue;
    if (typeof m.content === 'string') text += m.content;
    produced ||= filled(m.content) || filled(m.tool_calls) || filled(m.function_call) || filled(m.refusal);
  }
  return { produced, text };
}

/** The usage a whole answer reports, if any. */
export function usageOfAnswer(answer: Record<string, unknown>): TokenUsage | undefined {
  const u = answer.usage as ChunkShape['usage'];
  return u ? usageOf(u) : undefined;
}

function readAll(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.on('data', (piece: string) => {
      if (text.length < 16 * 1024) text += piece;
    });
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

function errorOfBody(text: string, status: number | undefined): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed.error) return errorText(parsed.error);
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return text.slice(0, 500) || `HTTP ${status}`;
}
