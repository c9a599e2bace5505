import type { FastifyInstance } from 'fastify';
import crypto from 'node:crypto';
import client from 'prom-client';
import { AppError, notFound } from '../lib/http/errors.js';

/** Compares in constant time, so the token cannot be found a character at a time. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

/**
 * Prometheus metrics at /metrics: process defaults plus request counts and durations.
 * They describe the server's load and routes, so they are served only to a scraper
 * presenting `Authorization: Bearer <METRICS_TOKEN>`; without a configured token the
 * path answers 404 like any unknown one (and nothing is measured).
 */
export function registerMetrics(app: FastifyInstance, token: string | undefined) {
  if (!token) {
    // Registered so that the web app's fallback does not answer this path with a page.
    app.get('/metrics', { schema: { hide: true } }, async () => {
      throw notFound();
    });
    return;
  }
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    duration.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given === undefined || !sameSecret(given, token)) {
      void reply.header('WWW-Authenticate', 'Bearer');
      throw new AppError('UNAUTHORIZED');
    }
    return reply.header('Content-Type', registry.contentType).send(await registry.metrics());
  });
}
