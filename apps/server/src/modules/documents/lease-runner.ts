import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';

/** How often an idle instance looks for work (queued elsewhere, or left by a dead instance). */
const POLL_MS = 1_000;

export interface LeaseRunnerOptions {
  clock: Clock;
  log: FastifyBaseLogger;
  /** How long a claim holds; renewed every third of it. */
  leaseMs: number;
  /** Logged when a round fails, and when renewing the leases fails. */
  failures: { round: string; renew: string };
  /** A kick during a round runs another round after it (rather than waiting for the next poll). */
  kickAgain: boolean;
}

/**
 * An instance's share of a queue kept in the database under leases (documents to read,
 * documents to embed): it looks for work right away, when kicked and every second, which
 * is also how work left by a killed instance is taken over once its lease has run out;
 * it renews the leases of what it holds every third of the lease, so a slow round cannot
 * lose one; on stop it takes nothing more, and waits for the round and the work in hand.
 * What a round claims and does, and how the leases are written, is the queue's own.
 */
export abstract class LeaseRunner {
  /** This instance, as the owner written on the work it holds. */
  readonly ownerId = crypto.randomUUID();
  protected readonly stopping = new AbortController();
  protected readonly clock: Clock;
  protected readonly log: FastifyBaseLogger;
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private again = false;

  constructor(private readonly options: LeaseRunnerOptions) {
    this.clock = options.clock;
    this.log = options.log;
  }

  /** Starts looking for work (right away, then every second). */
  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.renewTimer = setInterval(() => void this.renew(), this.options.leaseMs / 3);
    this.renewTimer.unref();
    this.kick();
  }

  /** Looks for work now, unless a round is running (then after it, with `kickAgain`). */
  kick(): void {
    if (this.stopping.signal.aborted) return;
    if (this.round) {
      if (this.options.kickAgain) this.again = true;
      return;
    }
    this.round = this.runRound()
      .catch((err: unknown) => this.log.warn({ err }, this.options.failures.round))
      .finally(() => {
        this.round = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops taking work, aborts what is in hand (`stopping`) and waits for it to be given back. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    clearInterval(this.renewTimer);
    await this.round;
    await this.inHand();
  }

  /** The lease a claim or a renewal starts now. */
  protected leaseUntil(): string {
    return new Date(this.clock.now().getTime() + this.options.leaseMs).toISOString();
  }

  /** One round: claims and works until the queue is empty or the instance is full. */
  protected abstract runRound(): Promise<void>;

  /** The ids of the work this instance holds now. */
  protected abstract held(): string[];

  /** Extends the leases of `ids` (held by this owner) to `until`. */
  protected abstract renewLeases(ids: string[], until: string): Promise<void>;

  /** Work still running outside a round, awaited on stop. */
  protected async inHand(): Promise<void> {}

  private async renew(): Promise<void> {
    const ids = this.held();
    if (ids.length === 0) return;
    try {
      await this.renewLeases(ids, this.leaseUntil());
    } catch (err) {
      this.log.warn({ err }, this.options.failures.renew);
    }
  }
}
