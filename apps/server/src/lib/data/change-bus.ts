import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { redisLink } from './redis-client.js';

/** Where the bus reports trouble; it never throws at its callers. */
interface BusLog {
  warn(obj: unknown, msg?: string): void;
}

/**
 * Named change events ("settings changed") for caches to drop what they hold. Within
 * one process it is an EventEmitter; with Redis every instance hears every event, so a
 * write on one instance clears the caches of all. Change events carry no data: a listener
 * reloads from the database, which stays the only source of truth. A lost event only
 * delays a change until the cache's own expiry, so publishing never fails a request.
 * An event may carry a string (the pieces of an answer someone watches on another
 * instance); events of one publisher arrive in the order published.
 */
export interface ChangeBus {
  /** Tells every listener, here at once and on other instances through Redis. */
  publish(name: string, data?: string): Promise<void>;
  /** Returns the function that stops listening. */
  subscribe(name: string, listener: (data: string | undefined) => void): () => void;
  /** Resolves once events from other instances arrive (at once without Redis). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

class LocalChangeBus implements ChangeBus {
  protected readonly emitter = new EventEmitter();

  constructor() {
    // Every cache of the process may listen; the default warning at 10 would be noise.
    this.emitter.setMaxListeners(0);
  }

  publish(name: string, data?: string): Promise<void> {
    this.emit(name, data);
    return Promise.resolve();
  }

  subscribe(name: string, listener: (data: string | undefined) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.emitter.removeAllListeners();
    return Promise.resolve();
  }

  /** A throwing listener must not keep the others from hearing the event. */
  protected emit(name: string, data?: string): void {
    for (const listener of this.emitter.listeners(name)) {
      try {
        (listener as (data: string | undefined) => void)(data);
      } catch {
        // A listener only drops a cache; there is nothing to undo.
      }
    }
  }
}

/**
 * Redis pub/sub on one channel per installation (the key prefix keeps installations
 * sharing a Redis apart). A connection in subscriber mode can issue no other command,
 * hence the dedicated connection; ioredis re-subscribes by itself after a reconnect.
 */
class RedisChangeBus extends LocalChangeBus {
  /** Tells this instance's own messages apart: they were already delivered locally. */
  private readonly origin = crypto.randomUUID();
  private readonly channel: string;
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<void>;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly log: BusLog,
  ) {
    super();
    this.channel = `${prefix}changes`;
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', (err) => this.log.warn({ err }, 'change bus subscriber error'));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const event = parseEvent(message);
      if (event && event.origin !== this.origin) this.emit(event.name, event.data);
    });
    this.subscribed = this.subscriber.subscribe(this.channel).then(() => undefined);
    // Until someone awaits ready(), a failed subscription must not be an unhandled rejection.
    this.subscribed.catch(() => undefined);
    // A subscription that failed while Redis was away is not among those ioredis renews
    // on reconnect; asking again on every (re)connection is harmless when it is.
    this.subscriber.on('ready', () => {
      this.subscriber.subscribe(this.channel).catch(() => undefined);
    });
  }

  override async publish(name: string, data?: string): Promise<void> {
    this.emit(name, data);
    // While Redis is away (or hung) the event is not even tried: the writer is not held up.
    await redisLink(this.redis).run(
      (redis) => redis.publish(this.channel, JSON.stringify({ name, origin: this.origin, data })).then(() => undefined),
      () => this.log.warn({ name }, 'change event not published; other instances catch up when their caches expire'),
    );
  }

  override ready(): Promise<void> {
    return this.subscribed;
  }

  override async close(): Promise<void> {
    await super.close();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}

function parseEvent(message: string): { name: string; origin: string; data?: string } | undefined {
  try {
    const value = JSON.parse(message) as { name?: unknown; origin?: unknown; data?: unknown };
    if (typeof value.name === 'string' && typeof value.origin === 'string') {
      return { name: value.name, origin: value.origin, data: typeof value.data === 'string' ? value.data : undefined };
    }
  } catch {
    // Not one of ours: ignore.
  }
  return undefined;
}

/** The bus of one app: Redis pub/sub when Redis is configured, in-process otherwise. */
export function createChangeBus(redis: Redis | undefined, prefix: string, log: BusLog): ChangeBus {
  return redis ? new RedisChangeBus(redis, prefix, log) : new LocalChangeBus();
}
