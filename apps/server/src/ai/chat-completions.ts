import type http from 'node:http';
import type { ModelMessage } from 'ai';
import {
  type ChatCompletionsEnd,
  type ChatCompletionsTarget,
  CompletionEvents,
  type WireUsage,
  UpstreamError,
  errorOfBody,
  errorText,
  postEventStream,
  readText,
  usageOf,
} from './chat-completions-http.js';

export {
  type ChatCompletionsEnd,
  type ChatCompletionsTarget,
  type TokenUsage,
  UpstreamError,
  agents,
} from './chat-completions-http.js';

/**
 * The lean relay for the OpenAI Chat Completions protocol, which OpenAI, DeepSeek, Qwen,
 * Ollama, vLLM and most self-hosted servers speak. A streamed answer is the hot path of
 * the platform: here the upstream's server-sent events go through one small parser and
 * each text delta is handed on as it arrives, with no per-chunk schema validation and no
 * chain of web streams (the SDK adapter cost about 0.6 ms of CPU per chunk and several
 * milliseconds before the first token). Other calls (titles, non-streamed answers, other
 * protocols) keep using the AI SDK.
 */

export interface ChatCompletionsRequest {
  system: string | undefined;
  messages: readonly ModelMessage[];
  temperature: number;
}

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
  // An HTTP error whose body names no message is told by its status.
  const refusal = (text: string, status: number | undefined) => errorOfBody(text, status) || `HTTP ${status}`;
  return postEventStream(target, body, signal, () => new AnswerEvents(handlers), refusal);
}

/** What the events of one answer add up to. */
class AnswerEvents extends CompletionEvents<CompletionChunk> {
  constructor(private readonly handlers: StreamHandlers) {
    super();
  }

  protected read(chunk: CompletionChunk): void {
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta) {
      if (typeof delta.content === 'string' && delta.content !== '') {
        this.handlers.onFirstByte();
        this.handlers.onText(delta.content);
      } else if (delta.reasoning_content || delta.reasoning) this.handlers.onFirstByte();
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** A server that ignored `stream: true` and answered with one JSON body. */
  async whole(res: http.IncomingMessage): Promise<ChatCompletionsEnd> {
    const parsed = JSON.parse(await readText(res, 64 * 1024 * 1024)) as CompletionChunk;
    if (parsed.error) throw new UpstreamError(errorText(parsed.error));
    const choice = parsed.choices?.[0];
    const text = choice?.message?.content ?? '';
    if (text) {
      this.handlers.onFirstByte();
      this.handlers.onText(text);
    }
    return { finishReason: choice?.finish_reason ?? 'stop', usage: parsed.usage ? usageOf(parsed.usage) : undefined };
  }
}

interface CompletionChunk {
  choices?: {
    delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
    message?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: WireUsage | null;
  error?: unknown;
}
