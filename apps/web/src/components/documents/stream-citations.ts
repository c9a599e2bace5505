import type { Citation } from '@aiplatform/contracts';

const isCitation = (value: unknown): value is Citation => {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.file_id === 'string' &&
    typeof c.name === 'string' &&
    (c.page === null || typeof c.page === 'number') &&
    typeof c.snippet === 'string'
  );
};

/**
 * The citations a stream's `done` event carries, checked by hand like the rest of the
 * stream (zod stays out of the browser): the well-formed ones, as a patch of the answer.
 */
export function citationsPatch(done: object): { citations?: Citation[] } {
  const list = (done as { citations?: unknown }).citations;
  if (!Array.isArray(list)) return {};
  return { citations: list.filter(isCitation) };
}
