import type { FastifyBaseLogger } from 'fastify';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import { probe, probeUrlOf } from './module-probe.js';
import type { ModulesRepo } from './modules.repo.js';

export const HEALTH_INTERVAL_MS = 5 * 60_000;
/** Probes in flight at once: enough to finish a round quickly, few enough to stay polite. */
const CONCURRENCY = 4;
const ROUND_KEY = 'modules:health-round';

export interface HealthMonitorOptions {
  intervalMs?: number;
  concurrency?: number;
  probeTimeoutMs?: number;
}

/**
 * Checks every active module in the background. Several instances share one database,
 * so each round first claims a key in the shared store that lives for most of an
 * interval: whichever instance claims it runs the round, the others skip it.
 */
export class ModuleHealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  readonly intervalMs: number;

  constructor(
    private readonly d: { repo: ModulesRepo; kv: KvStore; clock: Clock; log: FastifyBaseLogger },
    private readonly opts: HealthMonitorOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? HEALTH_INTERVAL_MS;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    // A pending check never keeps the process alive.
    this.timer.unref();
  }

  /** Stops the timer, cancels probes in flight and waits for the round to end. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.current;
  }

  /** One scheduled round, unless another round (here or on another instance) has it. */
  async tick(): Promise<void> {
    if (this.current || this.stopping.signal.aborted) return;
    this.current = this.claimAndRun().finally(() => {
      this.current = undefined;
    });
    await this.current;
  }

  private async claimAndRun(): Promise<void> {
    try {
      const ttlSeconds = Math.max(1, Math.floor((this.intervalMs * 0.9) / 1000));
      if (!(await this.d.kv.setIfAbsent(ROUND_KEY, ttlSeconds))) return;
      await this.checkAll();
    } catch (err) {
      this.d.log.warn({ err }, 'module health round failed');
    }
  }

  /** Probes every active module and stores each result; returns how many were checked. */
  async checkAll(): Promise<number> {
    const modules = await this.d.repo.listActive();
    let next = 0;
    const worker = async () => {
      while (next < modules.length && !this.stopping.signal.aborted) {
        const m = modules[next++]!;
        const result = await probe(probeUrlOf(m), {
          signal: this.stopping.signal,
          ...(this.opts.probeTimeoutMs ? { timeoutMs: this.opts.probeTimeoutMs } : {}),
        });
        // A probe cut short by shutdown says nothing about the module.
        if (this.stopping.signal.aborted) return;
        await this.d.repo.recordHealth(m.id, {
          health_status: result.status,
          health_latency_ms: result.latencyMs,
          health_checked_at: iso(this.d.clock.now()),
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency ?? CONCURRENCY, modules.length) }, worker));
    return modules.length;
  }
}
