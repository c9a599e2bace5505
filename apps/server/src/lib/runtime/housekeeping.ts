import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';

const HOUR_MS = 3_600_000;

/** One pruning job of the hourly round (expired auth rows, abandoned uploads, …). */
export interface HousekeepingTask {
  name: string;
  run: (now: Date) => Promise<unknown>;
}

/** One round: the tasks one after the other; a failing task is logged and does not stop the others. */
export async function runHousekeeping(now: Date, log: FastifyBaseLogger, tasks: HousekeepingTask[]): Promise<void> {
  for (const task of tasks) {
    await task.run(now).catch((err: unknown) => log.warn({ err, task: task.name }, 'housekeeping failed'));
  }
}

/** Runs a round hourly (not at start, which must stay fast). Returns the stopper. */
export function scheduleHousekeeping(clock: Clock, log: FastifyBaseLogger, tasks: HousekeepingTask[]): () => void {
  const timer = setInterval(() => void runHousekeeping(clock.now(), log, tasks), HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
