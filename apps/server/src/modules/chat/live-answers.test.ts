import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock } from '../../lib/runtime/clock.js';
import { LiveAnswers } from './live-answers.js';
import type { MessagesRepo } from './messages.repo.js';

/** The partial-text writer against a recording repository: what it writes, and in how many transactions. */
describe('live answers', () => {
  let batches: { owner: string; answers: { id: string; content: string }[] }[];
  let live: LiveAnswers;
  beforeEach(() => {
    vi.useFakeTimers();
    batches = [];
    const repo = {
      writePartials: (owner: string, answers: readonly { id: string; content: string }[]) => {
        batches.push({ owner, answers: answers.map((a) => ({ ...a })) });
        return Promise.resolve();
      },
      renewLeases: () => Promise.resolve(),
    } as unknown as MessagesRepo;
    live = new LiveAnswers(repo, systemClock, { warn: () => undefined } as unknown as FastifyBaseLogger, 30_000);
  });
  afterEach(async () => {
    await live.close();
    vi.useRealTimers();
  });

  it('writes the answers that grew each second, a hundred to a transaction, and only those', async () => {
    const followed = Array.from({ length: 250 }, (_, i) => ({ id: `a${i}`, partial: live.follow(`a${i}`) }));
    for (const f of followed) f.partial.update(`text of ${f.id}`);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(batches.map((b) => b.answers.length)).toEqual([100, 100, 50]);
    expect(batches.every((b) => b.owner === live.ownerId)).toBe(true);
    expect(batches.flatMap((b) => b.answers)).toContainEqual({ id: 'a249', content: 'text of a249' });

    // Next second: only the one that grew is written again.
    batches = [];
    followed[7]?.partial.update('text of a7, longer');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(batches).toEqual([{ owner: live.ownerId, answers: [{ id: 'a7', content: 'text of a7, longer' }] }]);

    // Nothing grew: nothing is written.
    batches = [];
    await vi.advanceTimersByTimeAsync(1_000);
    expect(batches).toEqual([]);
  });
});
