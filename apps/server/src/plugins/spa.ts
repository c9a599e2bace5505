import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A client-side route: not the API and not a file (no extension in the last segment). */
export function isClientRoute(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/assets/')) return false;
  return !/\.[a-z0-9]+$/i.test(pathname);
}

/**
 * Serves the built web app. Hashed assets are cached for a year; files are looked up on
 * each request, so a rebuild is served without a restart, and a missing asset is a 404
 * rather than index.html (a browser expecting a script must not receive a page).
 * Returns the history fallback for client routes, or undefined when there is no build.
 */
export async function registerSpa(app: FastifyInstance, distDir: string) {
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'web app not built; only the API is served (run `npm run build`)');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: true,
    index: ['index.html'],
    setHeaders: (res, file) => {
      const immutable = file.includes(`${path.sep}assets${path.sep}`);
      void res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return (_req: FastifyRequest, reply: FastifyReply) =>
    reply.header('Cache-Control', 'no-cache').sendFile('index.html', distDir);
}
