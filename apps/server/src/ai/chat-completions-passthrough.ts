import {
  type ChatCompletionsEnd,
  type ChatCompletionsTarget,
  CompletionEvents,
  type TokenUsage,
  type WireUsage,
  UpstreamError,
  errorOfBody,
  errorText,
  postEventStream,
  usageOf,
} from './chat-completions-http.js';
import { upstreamFetch } from './upstream-fetch.js';

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

export type PassThroughEnd = ChatCompletionsEnd;

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
  usage?: WireUsage | null;
  error?: unknown;
}

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
  return postEventStream(target, payload, signal, () => new PassedEvents(onChunk));
}

/** What the events of one request add up to, each chunk handed on as it came. */
class PassedEvents extends CompletionEvents<ChunkShape> {
  constructor(private readonly onChunk: (chunk: PassedChunk) => void) {
    super();
  }

  protected read(chunk: ChunkShape, data: string): void {
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
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    this.onChunk({ data, produced, text, usageOnly: !!chunk.usage && (chunk.choices ?? []).length === 0 });
  }
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
