import type { LanguageModel, ModelMessage } from 'ai';
import type { PassThroughEnd, PassedChunk } from '../../ai/chat-completions-passthrough.js';
import { UpstreamError } from '../../ai/chat-completions.js';
import { type UpstreamEnd, generateAnswer, streamAnswer } from '../../ai/upstream.js';
import { type ChatBody, contentText } from './v1-request.js';

/**
 * Models that do not speak Chat Completions (Anthropic, Google, OpenAI's reasoning models
 * through the AI SDK) answer `/v1` with text only: the messages' text goes to the model,
 * the answer comes back in Chat Completions chunks; tools and response formats are not
 * passed on.
 */
export interface SdkTurn {
  model: LanguageModel;
  modelName: string;
  body: ChatBody;
  signal: AbortSignal;
  firstByteMs: number;
  totalMs: number;
}

function callOf(t: SdkTurn) {
  const system = t.body.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => contentText(m.content))
    .join('\n\n');
  const messages: ModelMessage[] = [];
  for (const m of t.body.messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    messages.push({ role: m.role, content: contentText(m.content) });
  }
  return {
    model: t.model,
    system: system || undefined,
    messages,
    temperature: t.body.temperature ?? 1,
    signal: t.signal,
    firstByteTimeoutMs: t.firstByteMs,
    totalTimeoutMs: t.totalMs,
  };
}

const failure = (end: Exclude<UpstreamEnd, { kind: 'finished' }>) =>
  end.kind === 'failed'
    ? end.error instanceof Error
      ? end.error
      : new UpstreamError(String(end.error))
    : new UpstreamError(`aborted: ${end.reason}`);

/** A streamed answer as Chat Completions chunks (`streamPassThrough`'s contract). */
export async function sdkStream(t: SdkTurn, onChunk: (c: PassedChunk) => void): Promise<PassThroughEnd> {
  const base = { id: `chatcmpl-${crypto.randomUUID()}`, object: 'chat.completion.chunk', created: seconds() };
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    JSON.stringify({ ...base, model: t.modelName, choices: [{ index: 0, delta, finish_reason: finish }] });
  const end = await streamAnswer(callOf(t), (text) =>
    onChunk({ data: chunk({ content: text }, null), produced: text !== '', text, usageOnly: false }),
  );
  if (end.kind !== 'finished') throw failure(end);
  onChunk({ data: chunk({}, end.finishReason), produced: false, text: '', usageOnly: false });
  return { finishReason: end.finishReason, usage: end.usage };
}

/** A whole answer as one `chat.completion` object. */
export async function sdkComplete(t: SdkTurn): Promise<Record<string, unknown>> {
  const { end, text } = await generateAnswer(callOf(t));
  if (end.kind !== 'finished') throw failure(end);
  const u = end.usage;
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: 'chat.completion',
    created: seconds(),
    model: t.modelName,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: end.finishReason }],
    ...(u
      ? {
          usage: {
            prompt_tokens: u.inputTokens ?? 0,
            completion_tokens: u.outputTokens ?? 0,
            total_tokens: u.totalTokens ?? 0,
          },
        }
      : {}),
  };
}

const seconds = () => Math.floor(Date.now() / 1000);
