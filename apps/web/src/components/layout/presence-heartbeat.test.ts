import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type VisibilitySource, startHeartbeat } from './presence-heartbeat';

/** A page whose visibility the test switches. */
function fakeVisibility(initiallyVisible: boolean) {
  let visible = initiallyVisible;
  const listeners = new Set<() => void>();
  const source: VisibilitySource = {
    isVisible: () => visible,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const set = (next: boolean) => {
    visible = next;
    listeners.forEach((listener) => listener());
  };
  return { source, set, listeners };
}

describe('startHeartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('beats at once and then every period while visible', () => {
    const beat = vi.fn();
    const stop = startHeartbeat(beat, 30_000, fakeVisibility(true).source);
    expect(beat).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(29_999);
    expect(beat).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(beat).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(60_000);
    expect(beat).toHaveBeenCalledTimes(4);
    stop();
  });

  it('does not beat while hidden and beats at once on coming back', () => {
    const beat = vi.fn();
    const page = fakeVisibility(false);
    const stop = startHeartbeat(beat, 30_000, page.source);
    vi.advanceTimersByTime(120_000);
    expect(beat).not.toHaveBeenCalled();

    page.set(true);
    expect(beat).toHaveBeenCalledTimes(1);
    page.set(false);
    vi.advanceTimersByTime(120_000);
    expect(beat).toHaveBeenCalledTimes(1);
    page.set(true);
    expect(beat).toHaveBeenCalledTimes(2);
    stop();
  });

  it('ignores a repeated "visible" news', () => {
    const beat = vi.fn();
    const page = fakeVisibility(true);
    const stop = startHeartbeat(beat, 30_000, page.source);
    page.set(true);
    page.set(true);
    expect(beat).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30_000);
    expect(beat).toHaveBeenCalledTimes(2);
    stop();
  });

  it('stops beating and listening once stopped', () => {
    const beat = vi.fn();
    const page = fakeVisibility(true);
    const stop = startHeartbeat(beat, 30_000, page.source);
    stop();
    expect(page.listeners.size).toBe(0);
    vi.advanceTimersByTime(120_000);
    expect(beat).toHaveBeenCalledTimes(1);
  });
});
