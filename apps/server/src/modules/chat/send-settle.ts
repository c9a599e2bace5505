import type { ErrorCode } from '@aiplatform/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type AbortReason, type UpstreamEnd, describeUpstreamError } from '../../ai/upstream.js';
import type { MessageRow } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { isWorthRetrying } from '../../lib/data/db-errors.js';
import type { CallableModel } from '../models/models.service.js';
import type { TurnAccounting, TurnRef } from './turn-accounting.js';

/** What a turn's end is logged with. */
export interface TurnLabel {
  conversationId: string;
  model: CallableModel;
}

/**
 * The last step of a send: how the process that wrote an answer stores the turn's end: the answer kept and
 * charged, or the turn refunded, each only while the answer is still this process's
 * (another instance may have settled it once this one's lease ran out).
 *
 * The client must end with what was stored. So each step answers the error code the
 * client is told instead of `done` when the answer as it saw it was not stored:
 * `ANSWER_ENDED_ELSEWHERE` when another instance (the sweep, after this one lost its
 * lease) or a deletion settled the turn first, so the stored text is another one (the
 * client reads the conversation back), and `SERVICE_UNAVAILABLE` when the database could
 * not be reached (the turn stays streaming until its lease runs out and the sweep settles
 * it with the text written so far).
 */
export class TurnSettling {
  constructor(
    private readonly accounting: TurnAccounting,
    private readonly clock: Clock,
    /** This process's owner id (`LiveAnswers.ownerId`). */
    private readonly ownerId: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Stores an answer that has text; undefined once stored. */
  async keep(
    turn: TurnRef,
    answer: { content: string; tokens: number; status: MessageRow['status'] },
  ): Promise<ErrorCode | undefined> {
    return this.storing(turn, async () =>
      (await this.accounting.settle(turn, answer, this.now(), this.claim)) ? undefined : 'ANSWER_ENDED_ELSEWHERE',
    );
  }

  /**
   * No text: the turn is refunded exactly once, its placeholder removed and `errorCode`
   * kept on the question. Undefined once refunded, here or already elsewhere (a turn with no
   * text ends refunded wherever it is settled: the client's outcome is the same).
   */
  async refund(turn: TurnRef, errorCode: ErrorCode | null): Promise<ErrorCode | undefined> {
    return this.storing(turn, async () => {
      await this.accounting.refund(turn, this.now(), this.claim, errorCode);
      return undefined;
    });
  }

  /**
   * No answer: refunded exactly once, the placeholder removed and why kept on the question
   * (nothing for a stop call, SERVICE_UNAVAILABLE for a shutdown, else UPSTREAM_ERROR).
   * Undefined once refunded, else why the refund could not be stored.
   */
  noAnswer(turn: TurnRef & TurnLabel, end: UpstreamEnd): Promise<ErrorCode | undefined> {
    if (!isAbort(end, 'client')) this.logEnd(turn, end);
    const code = isAbort(end, 'client') ? null : isAbort(end, 'shutdown') ? 'SERVICE_UNAVAILABLE' : 'UPSTREAM_ERROR';
    return this.refund(turn, code);
  }

  /** Logs an answer that did not end well (the upstream's reason, its key masked). */
  logEnd(turn: TurnLabel, end: UpstreamEnd): void {
    this.log.warn(
      {
        model: turn.model.row.name,
        conversationId: turn.conversationId,
        outcome: end.kind === 'aborted' ? `aborted:${end.reason}` : end.kind,
        ...(end.kind === 'failed' ? { upstream: describeUpstreamError(end.error, turn.model.apiKey) } : {}),
      },
      'AI answer failed',
    );
  }

  private async storing(turn: TurnRef, step: () => Promise<ErrorCode | undefined>): Promise<ErrorCode | undefined> {
    try {
      const lost = await step();
      if (lost)
        this.log.warn({ conversationId: turn.conversationId, answerId: turn.answerId }, 'answer settled elsewhere');
      return lost;
    } catch (err) {
      if (!isWorthRetrying(err)) throw err;
      this.log.warn(
        { err, conversationId: turn.conversationId },
        'answer not stored: database unavailable or disk full',
      );
      return 'SERVICE_UNAVAILABLE';
    }
  }

  /** This process settles only the answers it owns. */
  private get claim() {
    return { owner: this.ownerId };
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

/** Whether the upstream call ended by an abort for that reason. */
export const isAbort = (end: UpstreamEnd, reason: AbortReason) => end.kind === 'aborted' && end.reason === reason;

/**
 * How an answer with text is kept: complete when the model finished, stopped after a stop
 * call or a shutdown, else error (the upstream broke off or ran out of time).
 */
export function keptStatus(end: UpstreamEnd): 'complete' | 'stopped' | 'error' {
  if (end.kind === 'finished') return 'complete';
  return isAbort(end, 'client') || isAbort(end, 'shutdown') ? 'stopped' : 'error';
}
