import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import { LiveLeases } from '../../lib/runtime/live-leases.js';
import type { MessagesRepo } from './messages.repo.js';

/** How long an instance vouches for an answer it streams; past it, any instance may settle the turn. */
export const DEFAULT_ANSWER_LEASE_MS = 30_000;
/** Answers written per transaction: one commit for many, but never a long hold on the database. */
const PARTIAL_WRITE_BATCH = 100;

interface Followed {
  text: string;
  written: string;
}

/**
 * The answers this process is writing into the database as they stream. Each second the
 * text of every answer that grew is written (one UPDATE per such answer, never per delta, a
 * hundred to a transaction), and every third of the lease (10 s by default) the leases of
 * all of them are renewed in one statement.
 */
export class LiveAnswers extends LiveLeases<Followed> {
  constructor(
    private readonly messages: MessagesRepo,
    clock: Clock,
    log: FastifyBaseLogger,
    leaseMs: number,
  ) {
    super(clock, log, leaseMs, 'partial answers not written');
  }

  /** Starts writing an answer's text as it grows; `end` before the answer is settled. */
  follow(answerId: string): { update(text: string): void; end(): void } {
    const end = this.track(answerId, { text: '', written: '' });
    return {
      update: (text) => {
        const f = this.followed.get(answerId);
        if (f) f.text = text;
      },
      end,
    };
  }

  protected async writeProgress(): Promise<void> {
    const grown: { id: string; content: string; followed: Followed }[] = [];
    for (const [id, f] of this.followed) if (f.text !== f.written) grown.push({ id, content: f.text, followed: f });
    // In batches, so that one transaction never holds SQLite's single connection for long.
    for (let i = 0; i < grown.length; i += PARTIAL_WRITE_BATCH) {
      const batch = grown.slice(i, i + PARTIAL_WRITE_BATCH);
      await this.messages.writePartials(
        this.ownerId,
        batch.map(({ id, content }) => ({ id, content })),
      );
      for (const g of batch) g.followed.written = g.content;
    }
  }

  /** Every answer this process owns and still streams, in one statement. */
  protected renew(_ids: string[], until: string): Promise<void> {
    return this.messages.renewLeases(this.ownerId, until);
  }
}
