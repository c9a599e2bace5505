import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

export interface RateLimits {
  auth: { rateLimit: { max: number; timeWindow: string } };
  emailCode: { rateLimit: { max: number; timeWindow: string } };
  check: { rateLimit: { max: number; timeWindow: string } };
  /** Per signed-in user (after authentication), so colleagues behind one NAT address do not share it. */
  chatSend: { rateLimit: PerUserLimit };
  chatUpload: { rateLimit: PerUserLimit };
}

interface PerUserLimit {
  max: number;
  timeWindow: string;
  hook: 'preHandler';
  keyGenerator: (req: FastifyRequest) => string;
}

/**
 * Per-IP request limits on the endpoints worth abusing. Counters live in Redis when
 * configured, so every instance behind a load balancer shares them.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  opts: { redis: Redis | undefined; redisPrefix: string; scale: number; isEnabled: () => Promise<boolean> },
): Promise<RateLimits> {
  const { redis, scale } = opts;
  await app.register(rateLimit, {
    global: false,
    // Administrators can switch limiting off (`security.rate_limit_enabled`); a Redis outage must not lock people out.
    allowList: async () => !(await opts.isEnabled()),
    skipOnError: true,
    ...(redis ? { redis, nameSpace: `${opts.redisPrefix}rl:` } : {}),
  });
  const per = (max: number) => ({ rateLimit: { max: Math.max(1, Math.round(max * scale)), timeWindow: '1 minute' } });
  const perUser = (max: number) => ({
    rateLimit: {
      ...per(max).rateLimit,
      // Runs after the route's own preHandlers (authentication), so the user is known.
      hook: 'preHandler' as const,
      keyGenerator: (req: FastifyRequest) => (req.auth ? `user:${req.auth.user.id}` : `ip:${req.ip}`),
    },
  });
  return { auth: per(30), emailCode: per(10), check: per(120), chatSend: perUser(60), chatUpload: perUser(30) };
}
