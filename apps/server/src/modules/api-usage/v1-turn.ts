import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { UpstreamError } from '../../ai/chat-completions.js';
import type { AbortReason } from '../../ai/upstream.js';
import { describeUpstreamError } from '../../ai/upstream.js';
import type { UserRow } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { likelyAffordable } from '../chat/send-reserve.js';
import { turnPrice } from '../chat/send-model.js';
import type { CallableModel } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { dayIn, statsTimeZone } from '../stats/stats-calendar.js';
import type { ApiAccounting, ApiTurnRef, KeyLimit, OpenApiTurn } from './api-accounting.js';
import type { ApiTurnsLive } from './api-turns-live.js';
import { V1Error, upstreamFailed } from './v1-errors.js';

/** The upstream's time limits: to its first output, and for the whole answer. */
export interface V1Limits {
  firstByteMs: number;
  totalMs: number;
}

/** One request's life: reserved, its upstream call under time limits and the client's presence, settled. */
export interface RunningTurn {
  ref: ApiTurnRef;
  signal: AbortSignal;
  /** The call's first output arrived: the first-byte limit is met. */
  gotFirstByte(): void;
  /** The model produced output: the turn will be charged, even if this instance dies. */
  produced(): void;
  abortReason(): AbortReason | undefined;
  /** Tokens of what was produced so far, for a turn that ends without a usage report. */
  estimate?: () => TurnTokens;
}

export interface TurnTokens {
  prompt: number;
  completion: number;
  total: number;
}

/**
 * The reservation, upstream call and settlement every `/v1` request goes through, with the
 * chat's rules: the model's per-turn price reserved in one transaction before the answer is
 * relayed (the call may start meanwhile when the balance last read covers it, as the chat's
 * early answer does, its output held until paid); a turn that produced anything is charged
 * (stopped, broken off or complete), one that produced nothing is refunded; a client that
 * goes away stops the upstream call.
 */
export class V1Turns {
  private readonly running = new Set<{ ac: AbortController; done: Promise<unknown> }>();

  constructor(
    private readonly accounting: ApiAccounting,
    private readonly live: ApiTurnsLive,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly limits: V1Limits,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Runs one turn: `call` starts the upstream call (perhaps before the reservation
   * commits; its output must wait for `paid`), `finish` settles by its outcome.
   */
  async run<T>(
    who: { user: UserRow; key: KeyLimit },
    model: CallableModel,
    kind: 'chat' | 'embedding',
    gone: AbortSignal,
    call: (turn: RunningTurn, paid: Promise<void>) => Promise<T>,
    opts: { early: boolean },
  ): Promise<T> {
    const settings = await this.settings.getSettings();
    const price = turnPrice(model, settings.credits);
    const now = this.clock.now().toISOString();
    const open: OpenApiTurn = {
      id: crypto.randomUUID(),
      userId: who.user.id,
      groupId: who.user.group_id,
      key: who.key,
      model: model.row.name,
      kind,
      cost: price.cost,
      required: price.required,
      day: dayIn(now, statsTimeZone(settings)),
      timeZone: statsTimeZone(settings),
      now,
      owner: this.live.ownerId,
      leaseUntil: this.live.leaseUntil(),
    };
    const ac = new AbortController();
    const abort = (reason: AbortReason) => {
      if (!ac.signal.aborted) ac.abort(reason);
    };
    const onGone = () => abort('client');
    if (gone.aborted) onGone();
    else gone.addEventListener('abort', onGone, { once: true });
    const total = setTimeout(() => abort('timeout'), this.limits.totalMs);
    let first: NodeJS.Timeout | undefined = setTimeout(() => abort('timeout'), this.limits.firstByteMs);
    let produced = false;
    let followed: ReturnType<ApiTurnsLive['follow']> | undefined;
    const turn: RunningTurn = {
      ref: {
        id: open.id,
        userId: open.userId,
        groupId: open.groupId,
        apiKeyId: open.key.id,
        model: open.model,
        day: open.day,
        cost: open.cost,
      },
      signal: ac.signal,
      gotFirstByte: () => {
        clearTimeout(first);
        first = undefined;
      },
      produced: () => {
        produced = true;
        followed?.produced();
      },
      abortReason: () => (ac.signal.aborted ? (ac.signal.reason as AbortReason) : undefined),
    };
    let pay!: { resolve: () => void; reject: (e: unknown) => void };
    const paid = new Promise<void>((resolve, reject) => (pay = { resolve, reject }));
    paid.catch(() => undefined);
    const early = opts.early && likelyAffordable(who.user, price.required, now);
    const entry = { ac, done: Promise.resolve() as Promise<unknown> };
    this.running.add(entry);
    try {
      let pending = early ? call(turn, paid) : undefined;
      pending?.catch(() => undefined);
      try {
        await this.accounting.open(open);
      } catch (err) {
        abort('client');
        pay.reject(err);
        await pending?.catch(() => undefined);
        throw err;
      }
      followed = this.live.follow(open.id);
      if (produced) followed.produced();
      pay.resolve();
      pending ??= call(turn, paid);
      entry.done = pending.catch(() => undefined);
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, value: await pending };
      } catch (error) {
        outcome = { ok: false, error };
      }
      followed.end();
      return await this.settle(turn, produced, outcome, model);
    } finally {
      clearTimeout(total);
      clearTimeout(first);
      gone.removeEventListener('abort', onGone);
      followed?.end();
      this.running.delete(entry);
    }
  }

  /** Settles by the outcome; answers the value, or throws what the client is told. */
  private async settle<T>(
    turn: RunningTurn,
    produced: boolean,
    outcome: { ok: true; value: T } | { ok: false; error: unknown },
    model: CallableModel,
  ): Promise<T> {
    const now = this.clock.now().toISOString();
    const claim = { owner: this.live.ownerId };
    const reason = turn.abortReason();
    if (!outcome.ok && reason !== 'client') {
      this.log.warn(
        {
          model: model.row.name,
          apiTurn: turn.ref.id,
          outcome: reason ? `aborted:${reason}` : 'failed',
          upstream: describeUpstreamError(outcome.error, model.apiKey),
        },
        'API answer failed',
      );
    }
    if (!produced) {
      await this.accounting.refund(turn.ref, now, claim);
      if (outcome.ok) return outcome.value;
      throw toClientError(outcome.error);
    }
    const tokens = outcome.ok ? tokensOf(outcome.value) : turn.estimate?.();
    const status = outcome.ok ? 'complete' : reason === 'client' || reason === 'shutdown' ? 'stopped' : 'error';
    await this.accounting.settle(
      turn.ref,
      {
        status,
        promptTokens: tokens?.prompt ?? 0,
        completionTokens: tokens?.completion ?? 0,
        tokens: tokens?.total ?? 0,
        now,
      },
      claim,
    );
    if (outcome.ok) return outcome.value;
    throw toClientError(outcome.error);
  }

  /** Stops the turns in progress (reason `shutdown`) and waits until they are settled. */
  async close(): Promise<void> {
    for (const r of this.running) r.ac.abort('shutdown');
    await Promise.all([...this.running].map((r) => r.done));
  }
}

/** What a call's value says of its tokens, when it carries them (`{ tokens }`). */
function tokensOf(value: unknown): TurnTokens | undefined {
  return (value as { tokens?: TurnTokens } | undefined)?.tokens;
}

/**
 * The refusal an upstream failure becomes: the upstream's own refusal of the request (a
 * 4xx other than its key being wrong) is the client's bad request, told with its message;
 * anything else is a gateway error.
 */
function toClientError(err: unknown): V1Error {
  if (err instanceof V1Error) return err;
  if (err instanceof UpstreamError && err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    if (![401, 403, 404, 429].includes(err.statusCode))
      return new V1Error(400, 'invalid_request_error', 'invalid_request_error', 'server.v1.upstreamRefused', {
        message: err.message.slice(0, 500),
      });
  }
  return upstreamFailed();
}
