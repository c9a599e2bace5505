import { Redis } from 'ioredis';

/**
 * Small shared key-value store for cooldowns and counters. In-process by default;
 * Redis when REDIS_URL is set, so that several instances share the same limits.
 */
export interface KvStore {
  /** Sets the key only if absent; true when this call set it. */
  setIfAbsent(key: string, ttlSeconds: number): Promise<boolean>;
  /** Seconds left before the key expires, 0 when absent. */
  ttl(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryKvStore implements KvStore {
  private readonly entries = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  private alive(key: string): boolean {
    const expires = this.entries.get(key);
    if (expires === undefined) return false;
    if (expires <= this.now()) {
      this.entries.delete(key);
      return false;
    }
    return true;
  }
  setIfAbsent(key: string, ttlSeconds: number): Promise<boolean> {
    if (this.alive(key)) return Promise.resolve(false);
    this.entries.set(key, this.now() + ttlSeconds * 1000);
    return Promise.resolve(true);
  }
  ttl(key: string): Promise<number> {
    if (!this.alive(key)) return Promise.resolve(0);
    return Promise.resolve(Math.ceil(((this.entries.get(key) ?? 0) - this.now()) / 1000));
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

export class RedisKvStore implements KvStore {
  constructor(
    readonly redis: Redis,
    private readonly prefix = 'aip:',
  ) {}
  async setIfAbsent(key: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, '1', 'EX', ttlSeconds, 'NX')) === 'OK';
  }
  async ttl(key: string): Promise<number> {
    return Math.max(0, await this.redis.ttl(this.prefix + key));
  }
  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }
  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
}
