import { PRESENCE_WINDOW_SECONDS } from '@aiplatform/contracts';
import type { Redis } from 'ioredis';
import type { Clock } from '../../lib/runtime/clock.js';
import { type RedisLink, redisLink } from '../../lib/data/redis-client.js';

/**
 * Who is online: a user counts for PRESENCE_WINDOW_SECONDS after a heartbeat or any
 * signed-in request. Nothing here touches the database.
 */
export interface Presence {
  /** Records that the user was just seen. Cheap; never throws. */
  seen(userId: number): void;
  /** A heartbeat: like `seen`, but never skipped by a write throttle. */
  beat(userId: number): void;
  /** Users seen within the window, on every instance. */
  countOnline(): Promise<number>;
  /** The ids of those users (for counting one group's members online). */
  onlineUserIds(): Promise<number[]>;
}

/** One instance: a map of last-seen times, pruned when counted. */
export class MemoryPresence implements Presence {
  private readonly lastSeen = new Map<number, number>();
  constructor(private readonly clock: Clock) {}

  seen(userId: number): void {
    this.lastSeen.set(userId, this.clock.now().getTime());
  }

  beat(userId: number): void {
    this.seen(userId);
  }

  countOnline(): Promise<number> {
    const since = this.clock.now().getTime() - PRESENCE_WINDOW_SECONDS * 1000;
    for (const [id, at] of this.lastSeen) if (at < since) this.lastSeen.delete(id);
    return Promise.resolve(this.lastSeen.size);
  }

  async onlineUserIds(): Promise<number[]> {
    await this.countOnline();
    return [...this.lastSeen.keys()];
  }
}

/**
 * Several instances: one Redis sorted set scored by last-seen time. An instance writes
 * a given user at most once per WRITE_EVERY_MS (a busy user's requests cost one
 * command, not one per request), so a user may drop out up to that much early; the
 * heartbeat always writes, so an open dashboard keeps its user counted exactly.
 * Every sighting is also kept in this process, which is what is counted while Redis is
 * away (this instance's users only, rather than an error).
 */
export class RedisPresence implements Presence {
  static readonly WRITE_EVERY_MS = 10_000;
  private readonly written = new Map<number, number>();
  private readonly link: RedisLink;
  private readonly local: MemoryPresence;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
  ) {
    this.link = redisLink(redis);
    this.local = new MemoryPresence(clock);
  }

  seen(userId: number): void {
    this.write(userId, false);
  }

  beat(userId: number): void {
    this.write(userId, true);
  }

  private write(userId: number, force: boolean): void {
    this.local.seen(userId);
    // Not written (nor remembered as written) while Redis is away: the next sighting after it returns writes.
    if (!this.link.usable) return;
    const now = this.clock.now().getTime();
    const last = this.written.get(userId);
    if (!force && last !== undefined && now - last < RedisPresence.WRITE_EVERY_MS) return;
    this.written.set(userId, now);
    if (this.written.size > 100_000) this.forgetOld(now);
    this.redis.zadd(this.key, now, String(userId)).catch((err: unknown) => {
      this.written.delete(userId);
      this.link.failed(err);
      this.onError(err);
    });
  }

  countOnline(): Promise<number> {
    const since = this.clock.now().getTime() - PRESENCE_WINDOW_SECONDS * 1000;
    return this.link.run(
      async (redis) => {
        const [, count] = await Promise.all([
          redis.zremrangebyscore(this.key, '-inf', `(${since}`),
          redis.zcount(this.key, since, '+inf'),
        ]);
        return count;
      },
      () => this.local.countOnline(),
    );
  }

  onlineUserIds(): Promise<number[]> {
    const since = this.clock.now().getTime() - PRESENCE_WINDOW_SECONDS * 1000;
    return this.link.run(
      async (redis) => (await redis.zrangebyscore(this.key, since, '+inf')).map(Number),
      () => this.local.onlineUserIds(),
    );
  }

  private forgetOld(now: number): void {
    for (const [id, at] of this.written) if (now - at >= RedisPresence.WRITE_EVERY_MS) this.written.delete(id);
  }
}
