import crypto from 'node:crypto';
import type { CapSubject } from './caps.repo.js';

/**
 * The key that signs a subject's alert webhooks: derived from the application secret and
 * the subject, so nothing secret is stored and every instance computes the same key. The
 * administrator reads it with the subject's caps and gives it to the receiver; it changes
 * only when the application secret does.
 */
export function webhookSecret(appSecret: string, subject: CapSubject): string {
  return crypto.createHmac('sha256', appSecret).update(`usage-cap-webhook:${subject.type}:${subject.id}`).digest('hex');
}

/** The `X-Signature` header of a body: `sha256=` and the hex HMAC-SHA256 of its exact bytes. */
export function signBody(secret: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}
