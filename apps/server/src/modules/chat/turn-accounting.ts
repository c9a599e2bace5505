import type { ErrorCode } from '@aiplatform/contracts';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { estimateTokens } from '../../ai/tokens.js';
import type { Database, MessageRow, MessagesTable } from '../../db/types.js';
import { AppError } from '../../lib/http/errors.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import { dayIn } from '../stats/stats-calendar.js';
import { type UsageKey, addUsage } from '../stats/usage-rollup.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { ConversationsRepo } from './conversations.repo.js';
import { lockOwner } from '../users/owner-lock.repo.js';
import type { AnswerClaim, MessagesRepo } from './messages.repo.js';
import { AlreadySettled, type TurnCharge, openTurn, reserveCredits, returnCharge, settleOnce } from './turn-charge.js';

export interface OpenTurn {
  userId: number;
  conversationId: string;
  /** Charged now; 0 when credits are off or the model is free. */
  cost: number;
  /** Balance the user must hold (≥ cost; the settings' minimum for chatting may ask more). */
  required: number;
  question: Insertable<MessagesTable>;
  /** False when a stored question is answered again (regenerate): only the answer is inserted. */
  questionIsNew: boolean;
  /** The question's images, in order. */
  questionFileIds: readonly string[];
  answer: Insertable<MessagesTable>;
  title: string;
  now: string;
  /** The statistics rows this turn counts in. */
  usage: UsageKey;
  /** The statistics time zone `usage.day` was read in: usage caps count windows in it. */
  timeZone: string;
}

export interface TurnRef {
  userId: number;
  conversationId: string;
  cost: number;
  questionId: string;
  answerId: string;
  usage: UsageKey;
}

/**
 * The money side of one chat turn. Each step is one transaction that
 * changes the balance and writes the ledger row together, so that for every user the
 * ledger sum equals quota − used at any moment.
 */
export class TurnAccounting {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly credits: CreditsRepo,
    private readonly messages: MessagesRepo,
    private readonly conversations: ConversationsRepo,
    private readonly users: UsersRepo,
    /**
     * The statistics zone: a turn settled from the database (left over by a previous run,
     * or removed by a deletion) is filed under the day it began there. Read before a
     * deletion's transaction, which must not wait for another query.
     */
    readonly timeZone: () => Promise<string>,
  ) {}

  /**
   * Reserves the cost with one conditional update, writes the `chat_consume` row and
   * inserts the question and the answer placeholder. Returns the balance after.
   * Throws CREDITS_EXPIRED, INSUFFICIENT_CREDITS {required, balance} or CAP_REACHED; nothing
   * is written then.
   */
  async open(t: OpenTurn): Promise<number> {
    return openTurn(this.db, t.now, async (trx) => {
      const remaining = await reserveCredits(
        trx,
        this.credits,
        {
          userId: t.userId,
          groupId: t.usage.groupId,
          model: t.usage.model,
          cost: t.cost,
          referenceId: t.answer.id,
          source: { chat: { conversationId: t.conversationId, modelName: t.usage.model } },
          required: t.required,
          now: t.now,
          timeZone: t.timeZone,
        },
        (balance, expired) => {
          if (expired) return new AppError('CREDITS_EXPIRED');
          const data = { required: t.required, balance };
          return new AppError('INSUFFICIENT_CREDITS', data, data);
        },
      );
      if (t.questionIsNew) await this.messages.insertPair(trx, t.question, t.answer, t.questionFileIds);
      else {
        await this.messages.insertOne(trx, t.answer);
        // A question left unanswered takes part in the conversation again once it is
        // answered, in place: what was sent after it follows its answer now.
        if (await this.messages.tree.markAnswered(trx, t.conversationId, t.question.id)) {
          await this.messages.tree.reparent(trx, t.conversationId, [t.question.id], t.answer.id);
        }
      }
      // The new answer is the version shown, here and on the person's other devices.
      await this.conversations.recordSend(trx, t.conversationId, t.now, t.title, t.questionIsNew ? 2 : 1, t.answer.id);
      // A conversation counts as started by its first answered turn (questions left
      // unanswered before it do not count), the same rule the back-fill uses.
      const started = !(await this.messages.hasAnswer(trx, t.conversationId, t.answer.id));
      await addUsage(trx, t.usage, { messages: 2, credits: t.cost, conversations: started ? 1 : 0 });
      // The draft is cleared on send.
      await this.conversations.deleteDraft(t.conversationId, trx);
      return remaining;
    });
  }

  /**
   * Stores the answer (complete, stopped or error with partial text) and counts its tokens,
   * if `claim` still allows it; returns false (and changes nothing) when the turn was
   * already settled elsewhere, e.g. by the sweep after this instance's lease ran out.
   */
  async settle(
    ref: TurnRef,
    answer: { content: string; tokens: number; status: MessageRow['status'] },
    now: string,
    claim: AnswerClaim = {},
  ): Promise<boolean> {
    // Rows are locked in the same order as in `open` (user, message, conversation), so
    // concurrent turns of one user cannot deadlock on PostgreSQL.
    return settleOnce(this.db, async (trx) => {
      await this.users.addTokensUsed(ref.userId, answer.tokens, trx);
      if (!(await this.messages.finishAnswer(trx, ref.answerId, answer, claim))) throw new AlreadySettled();
      await this.messages.indexQuestion(trx, ref.questionId);
      await this.conversations.addTokens(trx, ref.conversationId, answer.tokens, now);
      await addUsage(trx, ref.usage, { tokens: answer.tokens });
    });
  }

  /**
   * Nothing was answered: gives the cost back (`system_refund`, same reference as the
   * charge), removes the answer placeholder and marks the question `unanswered`. Exactly once: the unique
   * index on (transaction_type, reference_id) refuses a second refund row, and the
   * whole second attempt rolls back; so does one whose answer `claim` no longer allows
   * settling. Returns false when it had already been refunded or settled.
   */
  async refund(
    ref: TurnRef,
    now: string,
    claim: AnswerClaim = {},
    errorCode: ErrorCode | null = null,
  ): Promise<boolean> {
    return settleOnce(this.db, async (trx) => {
      await returnCharge(trx, chargeOf(ref), now);
      // The question stays, marked, so the person sees what went unanswered after a reload
      // and can send it again; only the empty answer goes. Anything hung under it meanwhile
      // (a retry moves a question's follow-up under its new answer) follows the question's
      // newest other answer, or the question itself when it has none: under the question
      // beside a surviving answer, it would become a version of that answer.
      const heir = ref.questionId
        ? ((await this.messages.tree.newestAnswerOf(trx, ref.conversationId, ref.questionId, ref.answerId)) ??
          ref.questionId)
        : null;
      await this.messages.tree.reparent(trx, ref.conversationId, [ref.answerId], heir);
      const removed = await this.messages.deleteStreamingAnswer(trx, ref.conversationId, ref.answerId, claim);
      if (removed === 0) throw new AlreadySettled();
      await this.messages.tree.markUnanswered(trx, ref.conversationId, ref.questionId, {
        errorCode,
        modelName: ref.usage.model,
      });
      // Shown from its question on (another answer of it, if any, or the question alone).
      await this.conversations.moveActive(trx, ref.conversationId, ref.answerId, ref.questionId);
      await this.messages.indexQuestion(trx, ref.questionId);
      await this.conversations.removeMessages(trx, ref.conversationId, removed, now);
      // The statistics count answered turns only: undo all that `open` counted, and the
      // conversation is no longer started when it has no answer left.
      await addUsage(trx, ref.usage, {
        messages: -2,
        credits: -ref.cost,
        conversations: (await this.messages.hasAnswer(trx, ref.conversationId)) ? 0 : -1,
      });
    });
  }

  /**
   * Settles turns whose owner is gone (`findAbandoned`): the text it had stored is kept
   * and charged as an answer broken off; with none, the turn is refunded and the question
   * kept. Each settlement is conditional on the lease still being expired, so two
   * instances sweeping at once, or the owner coming back late, settle a turn only once.
   */
  async settleAbandoned(at: { leaseExpiredAt: string; unleasedBefore: string }, limit: number) {
    const settled = { charged: 0, refunded: 0 };
    const timeZone = await this.timeZone();
    for (const m of await this.messages.findAbandoned(at, limit)) {
      const ref = await this.refOf(m, timeZone);
      if (m.content) {
        // The prompt is not known here: the stored text alone is counted.
        const answer = { content: m.content, tokens: estimateTokens(m.content), status: 'error' as const };
        if (await this.settle(ref, answer, at.leaseExpiredAt, at)) settled.charged += 1;
      } else if (await this.refund(ref, at.leaseExpiredAt, at)) settled.refunded += 1;
    }
    return settled;
  }

  /**
   * Inside a deletion's transaction, before its rows go: the turns it removes (`answerIds`;
   * unset, the whole conversation's) that are still streaming with no text stored are
   * refunded, as a turn that produced nothing is. Their answers were asked to stop first;
   * these are the ones whose instance did not settle them in time (gone, or stuck), which
   * would otherwise keep their charge with no text once the rows are gone. Each is taken
   * from its owner by a conditional write (still streaming), under the user's row lock
   * taken first as every settling step does, so the owner's own refund or settle, before or
   * after, finds it settled: refunded exactly once. Returns how many were refunded.
   */
  async refundRemoved(
    trx: Transaction<Database>,
    removal: {
      userId: number;
      conversationId: string;
      answerIds?: readonly string[] | undefined;
      now: string;
      /** `timeZone()`, read before the transaction. */
      timeZone: string;
    },
  ): Promise<number> {
    const { userId, conversationId, answerIds, now } = removal;
    await lockOwner(trx, userId);
    const silent = await this.messages.silentAnswers(trx, conversationId, answerIds);
    if (silent.length === 0) return 0;
    // The conversation no longer counts as started when no other answer is left (as a refund has it).
    let unstart = !(await this.messages.hasAnswerBesides(
      trx,
      conversationId,
      silent.map((m) => m.answerId),
    ));
    let refunded = 0;
    for (const m of silent) {
      if (!(await this.messages.claimForDeletion(trx, m.answerId))) continue;
      const ref = await this.refOf(m, removal.timeZone, trx);
      await returnCharge(trx, chargeOf(ref), now);
      await addUsage(trx, ref.usage, { messages: -2, credits: -ref.cost, conversations: unstart ? -1 : 0 });
      unstart = false;
      refunded += 1;
    }
    return refunded;
  }

  /** The turn of a streaming answer read back from the database (the sweep's and a deletion's view). */
  private async refOf(m: UnsettledAnswer, timeZone: string, db?: Transaction<Database>): Promise<TurnRef> {
    return {
      userId: m.userId,
      conversationId: m.conversationId,
      cost: await this.credits.chargeOf(m.answerId, db),
      questionId: m.questionId ?? '',
      answerId: m.answerId,
      // The group is today's: a move while the turn was in progress is not known.
      usage: { day: dayIn(m.createdAt, timeZone), userId: m.userId, groupId: m.groupId, model: m.model },
    };
  }
}

/** A streaming answer as `MessagesRepo` reads it for settling. */
type UnsettledAnswer = Awaited<ReturnType<MessagesRepo['findAbandoned']>>[number];

/** A turn's charge as the shared credit rules take it. */
const chargeOf = (ref: TurnRef): TurnCharge & { day: string } => ({
  userId: ref.userId,
  groupId: ref.usage.groupId,
  model: ref.usage.model,
  cost: ref.cost,
  referenceId: ref.answerId,
  source: { chat: { conversationId: ref.conversationId, modelName: ref.usage.model } },
  day: ref.usage.day,
});
