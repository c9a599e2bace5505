import { AUDIT_CHECKPOINT_FORMAT, type AuditCheckpoint } from '@aiplatform/contracts';
import type { AuditKey } from './audit-key.js';

type Statement = Omit<AuditCheckpoint, 'signature' | 'format'>;

/** What the signature covers: every field of the statement, in a fixed order. */
const signedContent = (c: Statement) =>
  JSON.stringify([AUDIT_CHECKPOINT_FORMAT, c.count, c.last_id, c.hash, c.created_at]);

/** Signs a statement of the chain head with the audit key (HMAC-SHA256). */
export function signCheckpoint(key: AuditKey, statement: Statement): AuditCheckpoint {
  const { count, last_id, hash, created_at } = statement;
  const fields = { count, last_id, hash, created_at };
  return { format: AUDIT_CHECKPOINT_FORMAT, ...fields, signature: key.mac('checkpoint', signedContent(fields)) };
}

/** Whether the checkpoint was signed by this installation's audit key and not altered since. */
export function checkpointIsGenuine(key: AuditKey, c: AuditCheckpoint): boolean {
  return c.format === AUDIT_CHECKPOINT_FORMAT && key.vouches('checkpoint', signedContent(c), c.signature);
}
