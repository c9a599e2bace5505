import { type LanguageModel, type ModelMessage, generateText, streamText } from 'ai';
import { type ChatCompletionsTarget, type TokenUsage, streamChatCompletions } from './chat-completions.js';
import { chatCompletionsTargetOf } from './providers.js';

/** Why a call was cut short: the client went away, the server is stopping, or a time limit passed. */
export type AbortReason = 'client' | 'shutdown' | 'timeout';

export type UpstreamEnd =
  | { kind: 'finished'; finishReason: 'stop' | 'length'; usage: TokenUsage | undefined }
  | { kind: 'aborted'; reason: AbortReason }
  | { kind: 'failed'; error: unknown };

export interface UpstreamCall {
  model: LanguageModel;
  system: string | undefined;
  messages: ModelMessage[];
  temperature: number;
  /** Aborted by the caller with an AbortReason as its reason. */
  signal: AbortSignal;
  firstByteTimeoutMs: number;
  totalTimeoutMs: number;
}

/**
 * One controller per call: the caller's signal and both time limits abort it, and its
 * signal goes to the upstream HTTP request, so the upstream connection is really closed.
 */
function controllerFor(call: UpstreamCall, firstByte: boolean) {
  const ac = new AbortController();
  const abort = (reason: AbortReason) => {
    if (!ac.signal.aborted) ac.abort(reason);
  };
  const onCaller = () => abort((call.signal.reason as AbortReason | undefined) ?? 'client');
  if (call.signal.aborted) onCaller();
  else call.signal.addEventListener('abort', onCaller, { once: true });
  const total = setTimeout(() => abort('timeout'), call.totalTimeoutMs);
  let first = firstByte ? setTimeout(() => abort('timeout'), call.firstByteTimeoutMs) : undefined;
  return {
    signal: ac.signal,
    gotFirstByte: () => {
      if (first) clearTimeout(first);
      first = undefined;
    },
    /** The reason when the call was aborted, else undefined. */
    abortReason: () => (ac.signal.aborted ? (ac.signal.reason as AbortReason) : undefined),
    dispose() {
      clearTimeout(total);
      if (first) clearTimeout(first);
      call.signal.removeEventListener('abort', onCaller);
    },
  };
}

const toFinishReason = (r: string): 'stop' | 'length' => (r === 'length' ? 'length' : 'stop');

/** How a stream ended before the time limits and the caller's signal are taken into account. */
type StreamOutcome = { finishReason: string; usage: TokenUsage | undefined } | { error: unknown };

/**
 * Streams an answer, handing each text piece to `onDelta`. Never throws: the outcome
 * says whether it finished, was aborted (and why) or failed. Chat Completions models take
 * the lean relay, the others the SDK's stream.
 */
export async function streamAnswer(call: UpstreamCall, onDelta: (text: string) => void): Promise<UpstreamEnd> {
  const ctl = controllerFor(call, true);
  const target = chatCompletionsTargetOf(call.model);
  let outcome: StreamOutcome;
  try {
    outcome = target ? await relayStream(target, call, ctl, onDelta) : await sdkStream(call, ctl, onDelta);
  } finally {
    ctl.dispose();
  }
  const reason = ctl.abortReason();
  if (reason) return { kind: 'aborted', reason };
  if ('error' in outcome) return { kind: 'failed', error: outcome.error };
  return { kind: 'finished', finishReason: toFinishReason(outcome.finishReason), usage: outcome.usage };
}

type CallControl = ReturnType<typeof controllerFor>;

async function relayStream(
  target: ChatCompletionsTarget,
  call: UpstreamCall,
  ctl: CallControl,
  onDelta: (text: string) => void,
): Promise<StreamOutcome> {
  try {
    return await streamChatCompletions(target, call, ctl.signal, {
      onText: onDelta,
      onFirstByte: ctl.gotFirstByte,
    });
  } catch (error) {
    return { error };
  }
}

async function sdkStream(
  call: UpstreamCall,
  ctl: CallControl,
  onDelta: (text: string) => void,
): Promise<StreamOutcome> {
  let finish: { finishReason: string; totalUsage: TokenUsage } | undefined;
  let error: unknown;
  try {
    const result = streamText({
      model: call.model,
      system: call.system,
      messages: call.messages,
      temperature: call.temperature,
      // Credits are reserved and the user waits: fail fast, the user may resend.
      maxRetries: 0,
      abortSignal: ctl.signal,
      // Errors arrive as stream parts below; the default handler would print them to the console.
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        ctl.gotFirstByte();
        if (part.text) onDelta(part.text);
      } else if (part.type === 'reasoning-delta') {
        ctl.gotFirstByte();
      } else if (part.type === 'finish') {
        finish = part;
      } else if (part.type === 'error') {
        error = part.error;
      }
    }
  } catch (err) {
    error = err;
  }
  if (error !== undefined || !finish) return { error: error ?? new Error('stream ended early') };
  return { finishReason: finish.finishReason, usage: finish.totalUsage };
}

/** The whole answer in one response (models without streaming, or `stream: false`). Never throws. */
export async function generateAnswer(call: UpstreamCall): Promise<{ end: UpstreamEnd; text: string }> {
  const ctl = controllerFor(call, false);
  try {
    const r = await generateText({
      model: call.model,
      system: call.system,
      messages: call.messages,
      temperature: call.temperature,
      maxRetries: 0,
      abortSignal: ctl.signal,
    });
    return {
      end: { kind: 'finished', finishReason: toFinishReason(r.finishReason), usage: r.totalUsage },
      text: r.text,
    };
  } catch (error) {
    const reason = ctl.abortReason();
    return { end: reason ? { kind: 'aborted', reason } : { kind: 'failed', error }, text: '' };
  } finally {
    ctl.dispose();
  }
}

/** A log-safe summary of an upstream failure: status and name, with the key masked. */
export function describeUpstreamError(error: unknown, apiKey: string | undefined): Record<string, unknown> {
  const e = error as { name?: string; statusCode?: number; message?: string } | undefined;
  let message = String(e?.message ?? error).slice(0, 500);
  if (apiKey) message = message.split(apiKey).join('***');
  return { name: e?.name, statusCode: e?.statusCode, message };
}
