import crypto from 'node:crypto';
import { API_KEY_SECRET_PREFIX } from '@aiplatform/contracts';

/** Random bytes in a secret: 32 bytes make guessing and precomputed tables pointless. */
const SECRET_BYTES = 32;
/** Characters of the secret shown in lists: `sk-` and a few more, too few to help a guess. */
const PREFIX_LENGTH = 10;
/** No secret we make is longer; a longer bearer value is refused before hashing. */
export const SECRET_MAX_LENGTH = 100;

/** A new secret: `sk-` and 43 base64url characters (32 random bytes). */
export function newSecret(): string {
  return API_KEY_SECRET_PREFIX + crypto.randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * What is stored of a secret. A plain SHA-256 suffices: the secret is 256 random bits, so
 * no slow hash is needed against guessing, and every request can afford to compute it.
 */
export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

export function prefixOf(secret: string): string {
  return secret.slice(0, PREFIX_LENGTH);
}

/** Compares two hex hashes in time independent of where they differ. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The secret of an `Authorization: Bearer sk-…` header, or undefined when there is none. */
export function secretOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const secret = match?.[1];
  if (!secret?.startsWith(API_KEY_SECRET_PREFIX) || secret.length > SECRET_MAX_LENGTH) return undefined;
  return secret;
}
