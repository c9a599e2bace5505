import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp } from '../../../test/chat-helpers.js';
import { age, conversationExists, conversationWithImage } from '../../../test/retention-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { JobLocksRepo } from './job-locks.repo.js';

const DAY_MS = 86_400_000;

/** The daily run: offered by every instance's housekeeping, run by one at a time, once a day. */
describe('retention across instances', () => {
  let t: TestApp;
  let other: TestApp;
  let admin: string;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    other = await t.sibling();
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await other.app.close();
    await t.close();
  });

  /**
   * Both instances' hourly rounds: at once on PostgreSQL; on SQLite one after the other, as two
   * instances in one process cannot hold write transactions at once (one would wait on the
   * other synchronously, holding the only thread the other needs to finish).
   */
  const bothRounds = async (first = t, second = other) => {
    const now = t.clock.now();
    if (t.dialect === 'postgres') await Promise.all([first.housekeeping.run(now), second.housekeeping.run(now)]);
    else for (const instance of [first, second]) await instance.housekeeping.run(now);
  };
  const jobRuns = () =>
    t.db.selectFrom('retention_runs').selectAll().where('started_by', 'is', null).orderBy('id').execute();

  it('two instances never run it at once, and it runs once a day', async () => {
    await t.setSetting('retention', { days: 30 });
    const { session } = await t.signUp();
    const c = await conversationWithImage(t, session.accessToken);
    await age(t, c.conv.id, 45);

    // Another holder of the lock (a run in progress elsewhere): nobody else runs.
    const locks = new JobLocksRepo(t.db);
    const now = t.clock.now();
    expect(
      await locks.acquire('retention', 'elsewhere', now.toISOString(), new Date(now.getTime() + 60_000).toISOString()),
    ).toBe(true);
    await bothRounds();
    expect(await jobRuns()).toEqual([]);
    const refused = await t.post('/api/admin/retention/run', { dry_run: true }, admin);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('RETENTION_RUNNING');
    expect(await conversationExists(t, c.conv.id)).toBe(true);

    // Its lease runs out (the holder died): both instances offer the run together; one runs it.
    t.clock.advance(2 * 60_000);
    await bothRounds();
    const runs = await jobRuns();
    expect(runs.map((r) => [r.status, r.conversations, r.files])).toEqual([['done', 1, 1]]);
    expect(await conversationExists(t, c.conv.id)).toBe(false);

    // Within the day: not again, from either instance.
    await bothRounds();
    expect(await jobRuns()).toHaveLength(1);
    // A day later: once more, by one of them.
    t.clock.advance(DAY_MS);
    await bothRounds(other, t);
    const later = await jobRuns();
    expect(later).toHaveLength(2);
    // Never overlapping: each started after the one before finished.
    expect(later[1]!.started_at >= later[0]!.finished_at!).toBe(true);
  });

  it('a lock is taken by one of two racing holders only', async () => {
    const locks = [new JobLocksRepo(t.db), new JobLocksRepo(other.db)];
    const now = t.clock.now().toISOString();
    const until = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const taken = await Promise.all(locks.map((l, i) => l.acquire('race', `owner-${i}`, now, until)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });
});
