import { PROVIDER_DEFAULT_BASE } from '@aiplatform/contracts';
import {
  type PassedChunk,
  answerProduced,
  completePassThrough,
  streamPassThrough,
  usageOfAnswer,
} from '../../ai/chat-completions-passthrough.js';
import { type TokenUsage, UpstreamError } from '../../ai/chat-completions.js';
import { estimateTokens } from '../../ai/tokens.js';
import { upstreamFetch } from '../../ai/upstream-fetch.js';
import { chatCompletionsTargetOf } from '../../ai/providers.js';
import type { CallableModel } from '../models/models.service.js';
import type { V1Models } from './v1-models.js';
import type { V1Principal } from './v1-gate.js';
import { type ChatBody, type EmbeddingsBody, contentText } from './v1-request.js';
import { sdkComplete, sdkStream } from './v1-sdk-models.js';
import type { RunningTurn, TurnTokens, V1Limits, V1Turns } from './v1-turn.js';

/** Where a streamed answer goes: the client's response, opened by the first write. */
export interface V1StreamOut {
  /** Writes one `data:` event (a chunk's JSON, or `[DONE]`). */
  write(data: string): void;
  /** Whether anything was written yet (after that, a failure is told in the stream). */
  readonly started: boolean;
}

/**
 * `/v1/chat/completions` and `/v1/embeddings`: the model resolved for the key, then one
 * turn run by `V1Turns` (reserve, call, settle). OpenAI-compatible upstreams get the
 * client's request as written and their chunks are relayed as sent; other providers
 * answer text through the AI SDK.
 */
export class V1Service {
  constructor(
    readonly models: V1Models,
    private readonly turns: V1Turns,
    private readonly limits: V1Limits,
  ) {}

  /**
   * A streamed answer. Output is held until the reservation committed and the model
   * produced something, so a refusal or an upstream failure before any output is still
   * answered as an HTTP error; after that a failure is an error event, then `[DONE]`.
   */
  async stream(p: V1Principal, body: ChatBody, out: V1StreamOut, gone: AbortSignal): Promise<void> {
    const model = await this.models.pick(p, body.model, 'chat');
    const wantUsage = body.stream_options?.include_usage === true;
    const promptTokens = estimateTokens(promptOf(body));
    const result = await this.turns.run(
      p,
      model,
      'chat',
      gone,
      async (turn, paid) => {
        let isPaid = false;
        let producing = false;
        let text = '';
        let sawUsage = false;
        const held: PassedChunk[] = [];
        const write = (c: PassedChunk) => {
          if (c.usageOnly) {
            sawUsage = true;
            if (!wantUsage) return;
          }
          out.write(c.data);
        };
        const flush = () => {
          for (const c of held.splice(0)) write(c);
        };
        void paid.then(
          () => {
            isPaid = true;
            if (producing) flush();
          },
          () => undefined,
        );
        turn.estimate = () => tokensOf(undefined, promptTokens, text);
        const onChunk = (c: PassedChunk) => {
          turn.gotFirstByte();
          text += c.text;
          if (c.produced && !producing) {
            producing = true;
            turn.produced();
          }
          if (isPaid && producing) {
            flush();
            write(c);
          } else held.push(c);
        };
        const end = await this.callStream(model, body, turn, onChunk);
        await paid;
        flush();
        return { tokens: tokensOf(end.usage, promptTokens, text), sawUsage, usage: end.usage };
      },
      { early: true },
    );
    if (wantUsage && !result.sawUsage) out.write(JSON.stringify(usageChunk(model, result.tokens)));
    out.write('[DONE]');
  }

  private callStream(model: CallableModel, body: ChatBody, turn: RunningTurn, onChunk: (c: PassedChunk) => void) {
    const target = chatCompletionsTargetOf(model.languageModel);
    if (target) return streamPassThrough(target, body, turn.signal, onChunk);
    return sdkStream(this.sdkTurn(model, body, turn), onChunk);
  }

  /** A whole answer: one `chat.completion` object, with `usage` (estimated when the upstream told none). */
  async complete(p: V1Principal, body: ChatBody, gone: AbortSignal): Promise<Record<string, unknown>> {
    const model = await this.models.pick(p, body.model, 'chat');
    const promptTokens = estimateTokens(promptOf(body));
    const r = await this.turns.run(
      p,
      model,
      'chat',
      gone,
      async (turn) => {
        // A whole answer has no first byte to wait for: only the total time limit applies.
        turn.gotFirstByte();
        const target = chatCompletionsTargetOf(model.languageModel);
        const answer = target
          ? await completePassThrough(target, body, turn.signal)
          : await sdkComplete(this.sdkTurn(model, body, turn));
        const { produced, text } = answerProduced(answer);
        if (produced) turn.produced();
        const tokens = tokensOf(usageOfAnswer(answer), promptTokens, text);
        answer.usage ??= usageJson(tokens);
        return { answer, tokens };
      },
      { early: false },
    );
    return r.answer;
  }

  /** `/v1/embeddings`: the request passed to the model's OpenAI embeddings API, priced per request. */
  async embeddings(p: V1Principal, body: EmbeddingsBody, gone: AbortSignal): Promise<Record<string, unknown>> {
    const model = await this.models.pick(p, body.model, 'embedding');
    const r = await this.turns.run(
      p,
      model,
      'embedding',
      gone,
      async (turn) => {
        turn.gotFirstByte();
        const base = (model.row.api_endpoint?.trim() || (PROVIDER_DEFAULT_BASE.openai as string)).replace(/\/+$/, '');
        const res = await upstreamFetch(`${base}/embeddings`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}),
          },
          body: JSON.stringify({ ...body, model: model.row.name }),
          signal: turn.signal,
        });
        const text = await res.text();
        if (!res.ok) throw new UpstreamError(upstreamMessage(text, res.status), res.status);
        const answer = JSON.parse(text) as Record<string, unknown>;
        if (Array.isArray(answer.data) && answer.data.length > 0) turn.produced();
        const u = answer.usage as { prompt_tokens?: number; total_tokens?: number } | undefined;
        const total = u?.total_tokens ?? u?.prompt_tokens ?? 0;
        return { answer, tokens: { prompt: u?.prompt_tokens ?? total, completion: 0, total } };
      },
      { early: false },
    );
    return r.answer;
  }

  private sdkTurn(model: CallableModel, body: ChatBody, turn: RunningTurn) {
    return {
      model: model.languageModel,
      modelName: model.row.name,
      body,
      signal: turn.signal,
      firstByteMs: this.limits.firstByteMs,
      totalMs: this.limits.totalMs,
    };
  }
}

const promptOf = (body: ChatBody) => body.messages.map((m) => contentText(m.content)).join('\n');

/** The provider's usage when it told one, else an estimate from the prompt and the text produced. */
function tokensOf(usage: TokenUsage | undefined, promptTokens: number, text: string): TurnTokens {
  const completion = usage?.outputTokens ?? estimateTokens(text);
  const prompt = usage?.inputTokens ?? promptTokens;
  const total = usage?.totalTokens ?? prompt + completion;
  return { prompt, completion, total };
}

const usageJson = (t: TurnTokens) => ({
  prompt_tokens: t.prompt,
  completion_tokens: t.completion,
  total_tokens: t.total,
});

const usageChunk = (model: CallableModel, t: TurnTokens) => ({
  id: `chatcmpl-${crypto.randomUUID()}`,
  object: 'chat.completion.chunk',
  created: Math.floor(Date.now() / 1000),
  model: model.row.name,
  choices: [],
  usage: usageJson(t),
});

function upstreamMessage(text: string, status: number): string {
  try {
    const m = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof m === 'string') return m;
  } catch {
    // Not JSON.
  }
  return text.slice(0, 500) || `HTTP ${status}`;
}
