import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';

const HOUR_MS = 3_600_000;

/** One pruning job of the hourly round (expired auth rows, abandoned uploads, …). */
export interface HousekeepingTask {
  name: string;
  run: (now: Date) => Promise<unknown>;
}

/**
 * Runs the tasks hourly (not at start, which must stay fast), one after the other; a
 * failing task is logged and does not stop the others. Returns the stopper.
 */
export function scheduleHousekeeping(clock: Clock, log: FastifyBaseLogger, tasks: HousekeepingTask[]): () => void {
  const timer = setInterval(() => {
    void (async () => {
      for (const task of tasks) {
        await task.run(clock.now()).catch((err: unknown) => log.warn({ err, task: task.name }, 'housekeeping failed'));
      }
    })();
  }, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
