import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { type RedisLink, redisLink } from '../lib/data/redis-client.js';

type Done = Parameters<FastifyRateLimitStore['incr']>[1];
/** The plugin's own stores also have `read` (a look without counting). */
interface Store extends FastifyRateLimitStore {
  read(key: string, done: Done, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): Store;
}
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];
/** What the plugin hands a store's constructor: its global settings. */
type StoreParams = FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean };
type RedisStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  nameSpace: string,
) => Store;
type LocalStoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean) => Store;

// The plugin's own stores, so counting is exactly what it does without a fallback.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as RedisStoreClass;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as LocalStoreClass;

/** Counts in Redis while it answers, in this process while it does not. */
class FallbackStore implements Store {
  constructor(
    private readonly remote: Store,
    private readonly local: Store,
    private readonly link: RedisLink,
  ) {}

  incr(key: string, done: Done, timeWindow: number, max: number): void {
    this.pick('incr', key, done, timeWindow, max);
  }

  read(key: string, done: Done, timeWindow: number, max: number): void {
    this.pick('read', key, done, timeWindow, max);
  }

  child(routeOptions: RouteOptions): Store {
    return new FallbackStore(this.remote.child(routeOptions), this.local.child(routeOptions), this.link);
  }

  private pick(method: 'incr' | 'read', key: string, done: Done, timeWindow: number, max: number): void {
    if (!this.link.usable) return this.local[method](key, done, timeWindow, max);
    this.remote[method](
      key,
      (err, res) => {
        if (!err) return done(null, res);
        this.link.failed(err);
        this.local[method](key, done, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }
}

/**
 * The store class handed to @fastify/rate-limit (it builds the store itself): limits are
 * shared by every instance through Redis and, while Redis is away or hung, still applied
 * per instance rather than skipped or failing the request.
 */
export function fallbackRateLimitStore(redis: Redis, nameSpace: string) {
  const link = redisLink(redis);
  return class extends FallbackStore {
    constructor(params: StoreParams) {
      const continueExceeding = params.continueExceeding ?? false;
      const exponentialBackoff = params.exponentialBackoff ?? false;
      super(
        new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace),
        new LocalStore(continueExceeding, exponentialBackoff),
        link,
      );
    }
  };
}
