import { Redis } from 'ioredis';

/** Where Redis trouble is reported; it never reaches a request as an error. */
export interface RedisLog {
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

const silent: RedisLog = { warn: () => undefined, info: () => undefined };

/**
 * A command that has no answer by then fails: a hung Redis (stopped process, lost
 * network) must not hold a request longer than this.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Establishing a connection; an unreachable host is given up this soon, then retried. */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
/** After a failed or timed-out command, Redis is left alone this long before it is tried again. */
export const REDIS_PAUSE_MS = 2000;

/**
 * Tells whether Redis may be used right now, so that its users fall back to in-process
 * state at once instead of each paying a failed command. Redis is usable while its
 * connection is up and no command has failed in the last REDIS_PAUSE_MS; ioredis
 * reconnects by itself, and the first success after that uses Redis again.
 */
export class RedisLink {
  private pausedUntil = 0;
  /** False from a failed command until the next answer, so an outage is logged once. */
  private answering = true;

  constructor(
    readonly redis: Redis,
    private readonly log: RedisLog = silent,
    private readonly now: () => number = Date.now,
  ) {}

  get usable(): boolean {
    return this.redis.status === 'ready' && this.now() >= this.pausedUntil;
  }

  /** Runs `command` on Redis while it is usable; otherwise, or when it fails, `fallback`. */
  async run<T>(command: (redis: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.usable) return fallback();
    try {
      const result = await command(this.redis);
      this.answered();
      return result;
    } catch (err) {
      this.failed(err);
      return fallback();
    }
  }

  /** A command failed (timed out, connection lost): use the fallback for a while. */
  failed(err: unknown): void {
    if (this.answering) {
      this.answering = false;
      this.log.warn({ err }, 'Redis did not answer; using in-process limits until it does');
    }
    this.pausedUntil = this.now() + REDIS_PAUSE_MS;
  }

  private answered(): void {
    this.pausedUntil = 0;
    if (this.answering) return;
    this.answering = true;
    this.log.info({}, 'Redis answers again; limits are shared through it once more');
  }

  /** Asks Redis itself (never the fallback), for readiness; an answer ends a pause early. */
  async ping(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    try {
      const ok = (await this.redis.ping()) === 'PONG';
      if (ok) this.answered();
      return ok;
    } catch (err) {
      this.failed(err);
      return false;
    }
  }
}

const links = new WeakMap<Redis, RedisLink>();

/** The one link of a client, shared by everything that uses it so they agree on its state. */
export function redisLink(redis: Redis): RedisLink {
  let link = links.get(redis);
  if (!link) {
    link = new RedisLink(redis);
    links.set(redis, link);
  }
  return link;
}

/**
 * A Redis client that can neither crash nor hang the server: every command times out,
 * connection errors are logged once per outage (an 'error' event without a listener
 * would be printed on every retry), and ioredis keeps reconnecting in the background.
 * The offline queue stays on so commands sent while the first connection is being made
 * wait for it (at most the command timeout); during an outage the link keeps traffic off it.
 */
export function createRedis(url: string, log: RedisLog = silent): Redis {
  const redis = new Redis(url, {
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    lazyConnect: false,
    // Reconnect quickly at first, then every 2 s, for as long as it takes.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  let down = false;
  redis.on('error', (err: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err }, 'Redis connection lost; retrying in the background');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({}, 'Redis connection restored');
  });
  links.set(redis, new RedisLink(redis, log));
  return redis;
}
