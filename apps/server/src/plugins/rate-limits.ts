import { QUOTAS } from '@aiplatform/contracts';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { fallbackRateLimitStore } from './rate-limit-store.js';

export interface RateLimits {
  auth: { rateLimit: { max: number; timeWindow: string } };
  emailCode: { rateLimit: { max: number; timeWindow: string } };
  check: { rateLimit: { max: number; timeWindow: string } };
  /** Per signed-in user (after authentication), so colleagues behind one NAT address do not share it. */
  chatSend: { rateLimit: PerUserLimit };
  chatUpload: { rateLimit: PerUserLimit };
  conversationCreate: { rateLimit: PerUserLimit };
  /** A whole account's data zipped: heavy, and nobody needs it often. */
  dataExport: { rateLimit: PerUserLimit };
}

interface PerUserLimit {
  max: number;
  timeWindow: string;
  hook: 'preHandler';
  keyGenerator: (req: FastifyRequest) => string;
}

/**
 * Per-IP request limits on the endpoints worth abusing. Counters live in Redis when
 * configured, so every instance behind a load balancer shares them; in this process
 * without Redis, or while it is away.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  opts: { redis: Redis | undefined; redisPrefix: string; scale: number; isEnabled: () => Promise<boolean> },
): Promise<RateLimits> {
  const { redis, scale } = opts;
  await app.register(rateLimit, {
    global: false,
    // Administrators can switch limiting off (`security.rate_limit_enabled`).
    allowList: async () => !(await opts.isEnabled()),
    // A Redis outage neither locks people out nor lifts the limits: they are counted in
    // this process until Redis answers again.
    skipOnError: true,
    ...(redis ? { store: fallbackRateLimitStore(redis, `${opts.redisPrefix}rl:`) } : {}),
  });
  const per = (max: number) => ({ rateLimit: { max: Math.max(1, Math.round(max * scale)), timeWindow: '1 minute' } });
  const perUser = (max: number, timeWindow = '1 minute') => ({
    rateLimit: {
      ...per(max).rateLimit,
      timeWindow,
      // Runs after the route's own preHandlers (authentication), so the user is known.
      hook: 'preHandler' as const,
      keyGenerator: (req: FastifyRequest) => (req.auth ? `user:${req.auth.user.id}` : `ip:${req.ip}`),
    },
  });
  return {
    auth: per(30),
    emailCode: per(10),
    check: per(120),
    chatSend: perUser(60),
    chatUpload: perUser(30),
    conversationCreate: perUser(QUOTAS.conversationsPerMinute),
    dataExport: perUser(5, '1 hour'),
  };
}
