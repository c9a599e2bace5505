import { describe, expect, it } from 'vitest';
import { type FrameScheduler, createDeltaAccumulator } from './delta-accumulator';

/** A hand-driven frame clock. */
function manualFrames() {
  let queued: (() => void) | null = null;
  let scheduled = 0;
  const schedule: FrameScheduler = (callback) => {
    scheduled += 1;
    queued = callback;
    return () => {
      queued = null;
    };
  };
  return {
    schedule,
    scheduledCount: () => scheduled,
    tick() {
      const callback = queued;
      queued = null;
      callback?.();
    },
  };
}

describe('createDeltaAccumulator', () => {
  it('publishes once per frame however many deltas arrived', () => {
    const frames = manualFrames();
    const published: string[] = [];
    const acc = createDeltaAccumulator((text) => published.push(text), frames.schedule);
    acc.push('Hel');
    acc.push('lo');
    acc.push(', ');
    expect(published).toEqual([]);
    expect(frames.scheduledCount()).toBe(1);
    frames.tick();
    expect(published).toEqual(['Hello, ']);
    acc.push('world');
    frames.tick();
    frames.tick();
    expect(published).toEqual(['Hello, ', 'Hello, world']);
    expect(frames.scheduledCount()).toBe(2);
  });

  it('keeps the full text in order, including multi-byte characters', () => {
    const frames = manualFrames();
    const acc = createDeltaAccumulator(() => undefined, frames.schedule);
    const parts = ['你', '好', '🌍', ' ', 'x'.repeat(1000)];
    for (const part of parts) acc.push(part);
    expect(acc.text()).toBe(parts.join(''));
    frames.tick();
    acc.push('!');
    expect(acc.text()).toBe(`${parts.join('')}!`);
  });

  it('ignores empty deltas without scheduling a frame', () => {
    const frames = manualFrames();
    const acc = createDeltaAccumulator(() => undefined, frames.schedule);
    acc.push('');
    expect(frames.scheduledCount()).toBe(0);
  });

  it('stops publishing after finish and returns the whole text', () => {
    const frames = manualFrames();
    const published: string[] = [];
    const acc = createDeltaAccumulator((text) => published.push(text), frames.schedule);
    acc.push('partial ');
    acc.push('answer');
    expect(acc.finish()).toBe('partial answer');
    frames.tick();
    acc.push('late');
    frames.tick();
    expect(published).toEqual([]);
    expect(acc.text()).toBe('partial answer');
  });

  it('handles a long stream of small deltas', () => {
    const frames = manualFrames();
    let last = '';
    const acc = createDeltaAccumulator((text) => (last = text), frames.schedule);
    for (let i = 0; i < 50_000; i++) {
      acc.push('ab');
      if (i % 100 === 0) frames.tick();
    }
    frames.tick();
    expect(last.length).toBe(100_000);
  });
});
