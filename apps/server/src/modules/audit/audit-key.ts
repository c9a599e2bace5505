import crypto from 'node:crypto';
import { timingSafeEqualHex } from '../../lib/auth/secrets.js';

/** What a MAC of the audit key vouches for; each purpose is its own domain. */
export type AuditMacPurpose = 'row' | 'keyed-from' | 'checkpoint';

/**
 * The audit log's own key, derived from the application secret with HKDF under a purpose
 * label of its own (never equal to the token, hand-off or secret-box keys). The database
 * never holds it, so someone who can only write to the database can change rows but
 * cannot compute the hashes that would make the change pass verification.
 */
export class AuditKey {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'aiplatform', 'audit-log:chain', 32));
  }

  /** HMAC-SHA256, hex, over the purpose and the content. */
  mac(purpose: AuditMacPurpose, content: string): string {
    return crypto.createHmac('sha256', this.key).update(purpose).update('\n').update(content).digest('hex');
  }

  /** Whether `mac` is this key's MAC of the content, compared in constant time. */
  vouches(purpose: AuditMacPurpose, content: string, mac: string): boolean {
    return /^[0-9a-f]{64}$/.test(mac) && timingSafeEqualHex(this.mac(purpose, content), mac);
  }
}
