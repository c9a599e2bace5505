/**
 * Field names whose values never enter the audit log. Token counts, prices and lifetimes
 * (`token_quota`, `token_used`, `token_expires_in`, `default_tokens`,
 * `credits_per_1k_document_tokens`) are not secrets.
 */
const SECRET_FIELD =
  /pass(word)?|secret|api_?key|(?<!default_|document_)token(?!_quota|_used|_expires_in)|authorization|hash/i;
export const REDACTED = '[REDACTED]';

/** A deep copy with every secret-looking field replaced, safe to store and show. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_FIELD.test(k) ? REDACTED : redact(v),
      ]),
    );
  }
  return value;
}

/**
 * The fields that differ between two snapshots, each side holding only those fields,
 * so a row says what changed rather than repeating the whole object.
 */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}
