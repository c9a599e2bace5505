import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/http/errors.js';
import { translate } from '../lib/runtime/i18n.js';

const MAX_DEPTH = 32;

/** Dotted path of the first string holding a NUL character, or undefined when there is none. */
function findNul(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const hit = findNul(child, path ? `${path}.${key}` : key, depth + 1);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * Refuses NUL characters in request bodies and query strings before validation. No text
 * field may hold one, and PostgreSQL cannot store or even compare them: without this a
 * NUL in an email answers 500 on PostgreSQL and is stored as is on SQLite.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const field = findNul(req.body, '', 0) ?? findNul(req.query, '', 0);
    if (field === undefined) return;
    const name = field || translate(req.lang, 'validation.body');
    throw new AppError(
      'VALIDATION_FAILED',
      {},
      { errors: [translate(req.lang, 'validation.invalid', { field: name })] },
    );
  });
}
