import type { Redis } from 'ioredis';
import { type RedisLink, redisLink } from './redis-client.js';

/**
 * Small shared key-value store for cooldowns and counters. In-process by default;
 * Redis when REDIS_URL is set, so that several instances share the same limits.
 */
export interface KvStore {
  /** Sets the key only if absent; true when this call set it. */
  setIfAbsent(key: string, ttlSeconds: number): Promise<boolean>;
  /**
   * Adds `by` to a counter and answers its new value. A counter that did not exist starts
   * at 0 and lives `ttlSeconds` from then: a window that opens with its first use. Taking
   * back (a negative `by`) from a counter whose window has closed does nothing (answers 0),
   * so a late give-back never credits the next window.
   */
  increment(key: string, by: number, ttlSeconds: number): Promise<number>;
  /** Seconds left before the key expires, 0 when absent. */
  ttl(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryKvStore implements KvStore {
  private readonly entries = new Map<string, { expires: number; value: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  private alive(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return false;
    }
    return true;
  }
  setIfAbsent(key: string, ttlSeconds: number): Promise<boolean> {
    if (this.alive(key)) return Promise.resolve(false);
    this.entries.set(key, { expires: this.now() + ttlSeconds * 1000, value: 1 });
    return Promise.resolve(true);
  }
  increment(key: string, by: number, ttlSeconds: number): Promise<number> {
    const entry = this.alive(key) ? this.entries.get(key) : undefined;
    if (!entry && by < 0) return Promise.resolve(0);
    const next = { expires: entry?.expires ?? this.now() + ttlSeconds * 1000, value: (entry?.value ?? 0) + by };
    this.entries.set(key, next);
    return Promise.resolve(next.value);
  }
  ttl(key: string): Promise<number> {
    if (!this.alive(key)) return Promise.resolve(0);
    return Promise.resolve(Math.ceil(((this.entries.get(key)?.expires ?? 0) - this.now()) / 1000));
  }
  delete(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }
  ping(): Promise<boolean> {
    return Promise.resolve(true);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** INCRBY, and the window's expiry set with the counter's first use (one atomic step). */
const INCREMENT_SCRIPT = `
if tonumber(ARGV[1]) < 0 and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return value`;

/**
 * Redis while it answers; while it is away or hung, the same operations on an in-process
 * store, so a cooldown or claim still holds on this instance instead of failing the
 * request. What was written to one side is not seen by the other across an outage (one
 * cooldown may be granted twice), which beats refusing every request while Redis is down.
 */
export class RedisKvStore implements KvStore {
  private readonly link: RedisLink;
  private readonly local: MemoryKvStore;

  constructor(
    readonly redis: Redis,
    private readonly prefix = 'aip:',
    now: () => number = Date.now,
  ) {
    this.link = redisLink(redis);
    this.local = new MemoryKvStore(now);
  }
  setIfAbsent(key: string, ttlSeconds: number): Promise<boolean> {
    return this.link.run(
      async (redis) => (await redis.set(this.prefix + key, '1', 'EX', ttlSeconds, 'NX')) === 'OK',
      () => this.local.setIfAbsent(key, ttlSeconds),
    );
  }
  increment(key: string, by: number, ttlSeconds: number): Promise<number> {
    return this.link.run(
      async (redis) => Number(await redis.eval(INCREMENT_SCRIPT, 1, this.prefix + key, by, ttlSeconds)),
      () => this.local.increment(key, by, ttlSeconds),
    );
  }
  ttl(key: string): Promise<number> {
    return this.link.run(
      async (redis) => Math.max(0, await redis.ttl(this.prefix + key)),
      () => this.local.ttl(key),
    );
  }
  async delete(key: string): Promise<void> {
    await this.local.delete(key);
    await this.link.run(
      async (redis) => void (await redis.del(this.prefix + key)),
      () => undefined,
    );
  }
  /** Redis itself answers, not the fallback: readiness reports the cache as down. */
  ping(): Promise<boolean> {
    return this.link.ping();
  }
  async close(): Promise<void> {
    // A hung Redis does not answer QUIT: drop the connection rather than wait.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export { createRedis } from './redis-client.js';
