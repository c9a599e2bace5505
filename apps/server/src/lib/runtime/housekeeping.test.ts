import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from './clock.js';
import { scheduleHousekeeping } from './housekeeping.js';

describe('hourly housekeeping', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every task each hour, in order, and a failing task neither stops the others nor the next round', async () => {
    const ran: string[] = [];
    const warn = vi.fn();
    const stop = scheduleHousekeeping(systemClock, { warn } as unknown as FastifyBaseLogger, [
      { name: 'auth', run: () => Promise.resolve(ran.push('auth')) },
      { name: 'broken', run: () => Promise.reject(new Error('disk gone')) },
      { name: 'chat uploads', run: () => Promise.resolve(ran.push('uploads')) },
    ]);
    await vi.advanceTimersByTimeAsync(59 * 60_000);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ran).toEqual(['auth', 'uploads']);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ task: 'broken' }), 'housekeeping failed');
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(ran).toEqual(['auth', 'uploads', 'auth', 'uploads']);
    stop();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(ran).toHaveLength(4);
  });
});
