/** Schedules a callback for the next frame; returns a cancel function. */
export type FrameScheduler = (callback: () => void) => () => void;

export const animationFrame: FrameScheduler = (callback) => {
  const handle = requestAnimationFrame(callback);
  return () => cancelAnimationFrame(handle);
};

export interface DeltaAccumulator {
  /** Appends a piece of the answer; the text is published on the next frame at the latest. */
  push(delta: string): void;
  /** The whole text received so far. */
  text(): string;
  /** Stops publishing (the caller writes the final state itself) and returns the whole text. */
  finish(): string;
}

/**
 * Collects streamed deltas and publishes the text at most once per animation frame.
 * Deltas wait in an array and are joined once per frame, so the work stays linear in
 * the answer's length however many tiny deltas a fast model sends between two frames.
 */
export function createDeltaAccumulator(
  publish: (text: string) => void,
  schedule: FrameScheduler = animationFrame,
): DeltaAccumulator {
  let joined = '';
  let pending: string[] = [];
  let cancel: (() => void) | null = null;
  let finished = false;

  const collect = (): string => {
    if (pending.length > 0) {
      joined += pending.join('');
      pending = [];
    }
    return joined;
  };

  const flush = () => {
    cancel = null;
    if (!finished) publish(collect());
  };

  return {
    push(delta) {
      if (finished || !delta) return;
      pending.push(delta);
      cancel ??= schedule(flush);
    },
    text: collect,
    finish() {
      finished = true;
      cancel?.();
      cancel = null;
      return collect();
    },
  };
}
