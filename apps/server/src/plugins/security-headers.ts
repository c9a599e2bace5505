import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every response. The middleware is built once: the fastify
 * wrapper builds it anew for every request, parsing the content security policy each time,
 * which cost more CPU than a whole `/api/health` answer.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const apply = helmet(options);
  app.addHook('onRequest', (req, reply, done) => {
    apply(req.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
}
