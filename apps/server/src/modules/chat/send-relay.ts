import type { NonStreamAnswer } from '@aiplatform/contracts';
import type { ModelMessage } from 'ai';
import { answerTokens, countTokens } from '../../ai/tokens.js';
import { type UpstreamCall, generateAnswer, streamAnswer } from '../../ai/upstream.js';
import type { ConversationRow } from '../../db/types.js';
import { AppError, notFound } from '../../lib/http/errors.js';
import type { CallableModel } from '../models/models.service.js';
import type { ActiveAnswers } from './active-answers.js';
import type { AnswerForwarding, ForwardedAnswer } from './answer-forwarding.js';
import { toConversation, toMessage } from './chat.presenter.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { ImagesService } from './images.service.js';
import type { LiveAnswers } from './live-answers.js';
import type { MessagesRepo } from './messages.repo.js';
import { TITLE_WAIT_MS, settleWithin } from './model-title.js';
import { type TurnSettling, isAbort, keptStatus } from './send-settle.js';
import type { Turn, TurnSink } from './turn.js';

/** The upstream's time limits: to its first byte, and for the whole answer. */
export interface UpstreamLimits {
  firstByteMs: number;
  totalMs: number;
}

/** The upstream request of a turn: the conversation's system prompt and temperature, and the prompt's messages. */
export function upstreamCall(
  model: CallableModel,
  conversation: ConversationRow,
  system: string | undefined,
  messages: ModelMessage[],
  signal: AbortSignal,
  limits: UpstreamLimits,
): UpstreamCall {
  return {
    model: model.languageModel,
    system,
    messages,
    temperature: Number(conversation.ai_temperature),
    signal,
    firstByteTimeoutMs: limits.firstByteMs,
    totalTimeoutMs: limits.totalMs,
  };
}

/**
 * A step of a send: the answer relayed from the upstream to its client (a stream of
 * server-sent events, or the whole answer) and to the pages watching it, its text written
 * as it grows, then stored by `TurnSettling`. A client that leaves stops nothing: the
 * answer goes on (its sink then writes to nobody) and pages may watch it.
 */
export class AnswerRelay {
  constructor(
    /** Answers in progress, aborted with reason `shutdown` when the server stops. */
    private readonly active: ActiveAnswers,
    /** Writes streaming text and renews the leases of this process's answers. */
    private readonly live: LiveAnswers,
    /** Hands the answers of this process to pages watching them (GET …/stream), only while they do. */
    private readonly forwarding: AnswerForwarding,
    private readonly settling: TurnSettling,
    private readonly messages: MessagesRepo,
    private readonly conversations: ConversationsRepo,
    private readonly images: ImagesService,
    private readonly limits: UpstreamLimits,
  ) {}

  /**
   * Non-stream mode: the whole answer, or UPSTREAM_ERROR after the refund. Like a stream,
   * it is written and charged even if its client left meanwhile; a page watching it
   * receives the whole text at the end. An answer that could not be stored as produced
   * answers the reason instead (see `TurnSettling`).
   */
  async whole(turn: Turn, ac: AbortController): Promise<NonStreamAnswer> {
    return this.track(turn, ac, async (_partial, forward) => {
      const { end, text } = await generateAnswer(this.call(turn, ac.signal));
      const tokens = end.kind === 'finished' ? countTokens(end.usage, turn.promptText, text) : 0;
      const failure =
        end.kind !== 'finished' || !text
          ? ((await this.settling.noAnswer(turn, end)) ?? 'UPSTREAM_ERROR')
          : await this.settling.keep(turn, { content: text, tokens, status: 'complete' });
      if (failure) {
        forward.error(failure);
        throw new AppError(failure);
      }
      if (end.kind === 'finished') {
        forward.done({
          content: text,
          messageId: turn.answerId,
          tokens,
          finish_reason: end.finishReason,
          ...citedIn(turn),
        });
      }
      await settleWithin(turn.titling, TITLE_WAIT_MS);
      const [answer, conversation] = await Promise.all([
        this.messages.findOne(turn.conversationId, turn.answerId),
        this.conversations.findOwned(turn.conversationId, turn.userId),
      ]);
      if (!answer || !conversation) throw notFound();
      return {
        user_message: turn.userMessage,
        assistant_message: toMessage(answer, this.images.urls.forOwner(turn.userId)),
        credits_info: { credits_remaining: turn.creditsRemaining, credits_consumed: turn.cost },
        conversation: toConversation(conversation),
      };
    });
  }

  /**
   * Stream mode. With no output at all the turn is refunded; with some, it is charged
   * and the text kept: `stopped` after a stop call (or when the server stops), `error`
   * when the upstream broke off or ran out of time. The stream ends with what was stored:
   * `done` only once the answer is, else an error naming why.
   */
  async stream(turn: Turn, toClient: TurnSink, ac: AbortController): Promise<void> {
    await this.track(turn, ac, async (partial, forward) => {
      const sink = forwardedSink(toClient, forward);
      let text = '';
      const onDelta = (delta: string) => {
        text += delta;
        partial.update(text);
        sink.delta(delta);
      };
      const end = await (turn.early ? turn.early.relayTo(onDelta) : streamAnswer(this.call(turn, ac.signal), onDelta));
      partial.end();
      if (!text) {
        const lost = await this.settling.noAnswer(turn, end);
        // Stopped before any output (a stop call; a gone client hears nothing): refunded, and said so.
        if (lost) sink.error(lost);
        else if (isAbort(end, 'client'))
          sink.done({ content: '', messageId: turn.answerId, tokens: 0, finish_reason: 'stopped' });
        else sink.error(isAbort(end, 'shutdown') ? 'SERVICE_UNAVAILABLE' : 'UPSTREAM_ERROR');
        return;
      }
      const status = keptStatus(end);
      if (status === 'error') this.settling.logEnd(turn, end);
      const tokens = answerTokens(end, turn.promptText, text);
      const lost = await this.settling.keep(turn, { content: text, tokens, status });
      // The client reads the conversation list again at the end: let it find the model's title.
      await settleWithin(turn.titling, TITLE_WAIT_MS);
      const done = { content: text, messageId: turn.answerId, tokens, ...citedIn(turn) };
      if (lost) sink.error(lost);
      else if (end.kind === 'finished') sink.done({ ...done, finish_reason: end.finishReason });
      else if (status === 'stopped') sink.done({ ...done, finish_reason: 'stopped' });
      else sink.error('UPSTREAM_ERROR');
    });
  }

  /**
   * Runs one answer: known to this process for shutdown (stoppable from any instance
   * through the change bus since its reservation), its text written as it grows and its
   * lease kept alive.
   */
  private async track<T>(
    turn: Turn,
    ac: AbortController,
    run: (partial: { update(text: string): void; end(): void }, forward: ForwardedAnswer) => Promise<T>,
  ): Promise<T> {
    const written = this.live.follow(turn.answerId);
    const forward = this.forwarding.open(turn.answerId);
    const partial = {
      update: (text: string) => {
        written.update(text);
        forward.grew(text);
      },
      end: () => written.end(),
    };
    try {
      return await this.active.track(turn.conversationId, ac, () => run(partial, forward));
    } finally {
      turn.stopListening();
      written.end();
      forward.close();
    }
  }

  private call(turn: Turn, signal: AbortSignal): UpstreamCall {
    return upstreamCall(turn.model, turn.conversation, turn.system, turn.messages, signal, this.limits);
  }
}

/** The turn's citations for its `done` event; none is told as no field. */
const citedIn = (turn: Turn) => (turn.citations.length > 0 ? { citations: turn.citations } : {});

/** The client's sink, also telling watchers how the answer ended (its text as stored). */
export function forwardedSink(sink: TurnSink, forward: ForwardedAnswer): TurnSink {
  return {
    delta: (t) => sink.delta(t),
    done: (data) => {
      sink.done(data);
      forward.done(data);
    },
    error: (code) => {
      sink.error(code);
      forward.error(code);
    },
  };
}
