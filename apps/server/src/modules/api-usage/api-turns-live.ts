import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import { LiveLeases } from '../../lib/runtime/live-leases.js';
import type { ApiTurnsRepo } from './api-turns.repo.js';

interface Followed {
  produced: boolean;
  marked: boolean;
}

/**
 * The API turns this process is serving, under its leases: each second the turns that began
 * producing output are marked so (one statement; a crash loses at most about that), and
 * every third of the lease the leases of all of them are renewed (one statement). A turn
 * whose process died keeps its lease until it runs out; then the sweep settles it by what
 * was marked.
 */
export class ApiTurnsLive extends LiveLeases<Followed> {
  constructor(
    private readonly repo: ApiTurnsRepo,
    clock: Clock,
    log: FastifyBaseLogger,
    leaseMs: number,
  ) {
    super(clock, log, leaseMs, 'API turns: leases not renewed');
  }

  /** Follows a reserved turn until `end`, called before it is settled. */
  follow(id: string): { produced(): void; end(): void } {
    const end = this.track(id, { produced: false, marked: false });
    return {
      produced: () => {
        const t = this.followed.get(id);
        if (t) t.produced = true;
      },
      end,
    };
  }

  protected async writeProgress(): Promise<void> {
    const fresh = [...this.followed].filter(([, t]) => t.produced && !t.marked);
    if (fresh.length === 0) return;
    await this.repo.markProduced(
      this.ownerId,
      fresh.map(([id]) => id),
    );
    for (const [, t] of fresh) t.marked = true;
  }

  protected renew(ids: string[], until: string): Promise<void> {
    return this.repo.renewLeases(this.ownerId, ids, until);
  }
}
