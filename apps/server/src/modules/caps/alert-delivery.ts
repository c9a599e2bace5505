import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { Mailer } from '../../lib/runtime/mailer.js';
import type { AlertDeliveriesRepo, AlertDelivery } from './alert-deliveries.repo.js';
import { signBody, webhookSecret } from './webhook-signature.js';

export interface AlertDeliveryOptions {
  /** How often the queue is looked at. */
  intervalMs: number;
  /** The wait before the second try; it doubles with each failure. */
  firstRetryMs: number;
  /** Tries before a delivery is given up (`failed`). */
  maxAttempts: number;
  /** The longest a webhook receiver may take to answer. */
  timeoutMs: number;
}

export const ALERT_DELIVERY_DEFAULTS: AlertDeliveryOptions = {
  intervalMs: 5_000,
  firstRetryMs: 30_000,
  maxAttempts: 8,
  timeoutMs: 10_000,
};

const BATCH = 20;

/**
 * Sends the mails and webhook calls that alerts queued (after their transaction committed),
 * on every instance: each delivery is leased by one instance at a time, tried, and its try
 * recorded (time, HTTP status or error, duration). A failure is tried again after
 * `firstRetryMs`, then twice as long each time, up to `maxAttempts`. Webhook bodies are
 * signed `X-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with the subject's key.
 */
export class AlertDeliveryLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly d: {
      repo: AlertDeliveriesRepo;
      mailer: Mailer;
      clock: Clock;
      log: FastifyBaseLogger;
      secret: string;
      options: AlertDeliveryOptions;
    },
  ) {}

  start(): void {
    if (this.d.options.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.runOnce(), this.d.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One round over the due deliveries; returns how many were tried. Never throws. */
  runOnce(): Promise<number> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<number> {
    try {
      const now = this.d.clock.now();
      const lease = new Date(now.getTime() + 2 * this.d.options.timeoutMs).toISOString();
      const due = await this.d.repo.claimDue(now.toISOString(), lease, BATCH);
      for (const delivery of due) await this.attempt(delivery);
      return due.length;
    } catch (err) {
      this.d.log.warn({ err }, 'alert deliveries not sent');
      return 0;
    }
  }

  private async attempt(d: AlertDelivery): Promise<void> {
    const started = Date.now();
    const at = this.d.clock.now();
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      if (d.channel === 'email') {
        const mail = JSON.parse(d.payload) as { subject: string; text: string };
        await this.d.mailer.send({ to: d.target, ...mail });
      } else {
        httpStatus = await this.post(d);
        if (httpStatus < 200 || httpStatus >= 300) error = `HTTP ${httpStatus}`;
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const tries = d.attempts + 1;
    const { firstRetryMs, maxAttempts } = this.d.options;
    const outcome =
      error === null
        ? { status: 'delivered' as const, next: at.toISOString() }
        : tries >= maxAttempts
          ? { status: 'failed' as const, next: at.toISOString() }
          : {
              status: 'pending' as const,
              next: new Date(at.getTime() + firstRetryMs * 2 ** (tries - 1)).toISOString(),
            };
    await this.d.repo.settle(d, { at: at.toISOString(), httpStatus, error, durationMs: Date.now() - started }, outcome);
  }

  private async post(d: AlertDelivery): Promise<number> {
    const key = webhookSecret(this.d.secret, { type: d.subject_type, id: d.subject_id });
    const res = await fetch(d.target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signBody(key, d.payload) },
      body: d.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.d.options.timeoutMs),
    });
    await res.body?.cancel();
    return res.status;
  }
}
