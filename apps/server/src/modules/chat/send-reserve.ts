import crypto from 'node:crypto';
import type { Citation, Settings } from '@aiplatform/contracts';
import { EarlyAnswer } from '../../ai/early-answer.js';
import { estimateTokens } from '../../ai/tokens.js';
import type { ConversationRow, MessageRow, UserRow } from '../../db/types.js';
import { isForeignKeyViolation } from '../../lib/data/db-errors.js';
import { notFound } from '../../lib/http/errors.js';
import type { CallableModel } from '../models/models.service.js';
import { dayIn, statsTimeZone } from '../stats/stats-calendar.js';
import type { AnswerStops } from './answer-stops.js';
import { titleFromQuestion } from './auto-title.js';
import type { LiveAnswers } from './live-answers.js';
import type { TurnPrice } from './send-model.js';
import type { TurnInput, TurnPromptBuilt } from './send-prompt.js';
import { type UpstreamLimits, upstreamCall } from './send-relay.js';
import type { TurnAccounting, TurnRef } from './turn-accounting.js';

/** What a turn reserves, and the answer it may ask for while doing so. */
export interface ReserveRequest {
  user: UserRow;
  conversation: ConversationRow;
  model: CallableModel;
  input: TurnInput;
  price: TurnPrice;
  /** The site's settings: the statistics day of the turn. */
  settings: Settings;
  now: string;
  /** The prompt when it reads nothing from disk and was built before paying. */
  prompt: TurnPromptBuilt | undefined;
  /** Whether the client asked for a stream (it gets one if the model streams too). */
  stream: boolean;
  /** The document passages the answer is given: stored with the answer from the start. */
  citations: readonly Citation[];
}

/** The question as stored by the reservation. */
export type StoredQuestion = Omit<
  MessageRow,
  'seq' | 'file_id' | 'owner_id' | 'lease_until' | 'error_code' | 'citations'
>;

/** A paid-for turn: its rows written, listening for stop calls. */
export interface Reservation {
  ref: TurnRef;
  question: StoredQuestion;
  /** The title a conversation without one took from this question. */
  questionTitle: string;
  creditsRemaining: number;
  /** The streamed answer, when it was asked for while the credits were reserved. */
  early: EarlyAnswer | undefined;
  /** Ends listening for stop calls (begun as soon as the answer row was written). */
  stopListening: () => void;
}

/**
 * A step of a send: the one conditional credit reservation, which writes the question
 * and an empty answer (owned by this process under a lease) in the same transaction.
 *
 * A streamed turn whose prompt was built before paying (it reads nothing from disk) and
 * whose sender's last known balance covers it asks the upstream for its answer first, so
 * the upstream's time to first token overlaps the reservation (`EarlyAnswer`): nothing is
 * relayed before the reservation succeeds, and a refused turn aborts the call at once.
 * `ac` is the turn's controller: aborting it stops the upstream call.
 */
export class TurnReservation {
  constructor(
    private readonly accounting: TurnAccounting,
    private readonly stops: AnswerStops,
    private readonly live: LiveAnswers,
    private readonly limits: UpstreamLimits,
  ) {}

  async reserve(r: ReserveRequest, ac: AbortController): Promise<Reservation> {
    const { user, conversation, model, input, now } = r;
    const { cost, required } = r.price;
    const early =
      r.prompt && r.stream && model.row.stream_enabled === 1 && likelyAffordable(user, required, now)
        ? new EarlyAnswer(upstreamCall(model, conversation, input.system, r.prompt.messages, ac.signal, this.limits))
        : undefined;

    const { asked, files } = input;
    const questionId = asked.id;
    const answerId = crypto.randomUUID();
    const usage = {
      day: dayIn(now, statsTimeZone(r.settings)),
      userId: user.id,
      groupId: user.group_id,
      model: model.row.name,
    };
    const question: StoredQuestion = {
      id: questionId,
      conversation_id: conversation.id,
      role: 'user',
      content: asked.content,
      parent_id: asked.parentId,
      tokens: estimateTokens(asked.content),
      model_name: null,
      status: 'complete',
      created_at: now,
    };
    // A conversation without a title takes one from its first question; the model may write a better one.
    const questionTitle = titleFromQuestion(asked.content);
    let creditsRemaining: number;
    try {
      creditsRemaining = await this.accounting.open({
        userId: user.id,
        conversationId: conversation.id,
        cost,
        required,
        question,
        questionIsNew: asked.isNew,
        questionFileIds: files.map((f) => f.id),
        answer: {
          ...question,
          id: answerId,
          role: 'assistant',
          content: '',
          parent_id: questionId,
          tokens: 0,
          model_name: model.row.name,
          status: 'streaming',
          owner_id: this.live.ownerId,
          lease_until: this.live.leaseUntil(),
          citations: r.citations.length > 0 ? JSON.stringify(r.citations) : null,
        },
        title: questionTitle,
        now,
        usage,
      });
    } catch (err) {
      // Refused (or the database failed): an answer asked for early is not wanted.
      if (early) ac.abort('client');
      // The conversation or an attached file was deleted after the checks: not found, as a
      // moment later; nothing was written (the transaction rolled back).
      if (isForeignKeyViolation(err)) throw notFound();
      throw err;
    }
    // From the moment the answer row exists a stop call can find it: listen at once, not
    // only when the stream starts (nothing runs between the commit and this line).
    const stopListening = this.stops.listen(conversation.id, ac);
    const ref = { userId: user.id, conversationId: conversation.id, cost, questionId, answerId, usage };
    return { ref, question, questionTitle, creditsRemaining, early, stopListening };
  }
}

/**
 * Whether the sender's balance as last read (the session's copy of the user, perhaps a
 * moment old) covers the turn. Only decides whether the answer may be asked for early:
 * the reservation stays the authority, and a wrong guess costs one aborted upstream call.
 */
export function likelyAffordable(user: UserRow, required: number, now: string): boolean {
  if (required === 0) return true;
  if (user.credits_expire_at !== null && user.credits_expire_at <= now) return false;
  return user.credits_quota - user.credits_used >= required;
}
