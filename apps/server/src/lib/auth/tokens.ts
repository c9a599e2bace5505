import crypto from 'node:crypto';
import { type AccessTokenClaims, type Role, expiresInToSeconds } from '@aiplatform/contracts';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AppError } from '../http/errors.js';

export interface AccessTokenInput {
  userId: number;
  email: string;
  role: Role;
  sid: string;
}

/** Verified tokens kept per process; past this many the oldest is forgotten first. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signs and verifies access JWTs (HS256) with the application secret. A token's signature
 * is checked once per process: the same string verifies the same way every time, and
 * WebCrypto's HMAC costs about a millisecond of CPU per call, more than the rest of a
 * typical request. Expiry is still checked on every use; revocation is the session
 * check's job (auth-guard), which runs after this whatever the token cache says.
 */
export class AccessTokens {
  private readonly key: Uint8Array;
  /** Token → its claims, in insertion order (oldest first). */
  private readonly verified = new Map<string, AccessTokenClaims>();
  constructor(secret: string) {
    this.key = new TextEncoder().encode(`access:${secret}`);
  }

  async sign(input: AccessTokenInput, expiresIn: string, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ userId: input.userId, email: input.email, role: input.role, sid: input.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresInToSeconds(expiresIn))
      .setJti(crypto.randomUUID())
      .sign(this.key);
  }

  async verify(token: string, now: Date): Promise<AccessTokenClaims> {
    const known = this.verified.get(token);
    if (known) {
      // As jose counts it: expired once `exp` is not after the current second.
      if (known.exp <= Math.floor(now.getTime() / 1000)) {
        this.verified.delete(token);
        throw new AppError('TOKEN_EXPIRED');
      }
      return known;
    }
    const claims = await this.verifySignature(token, now);
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(token: string, now: Date): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: now,
      });
      if (typeof payload.userId !== 'number' || typeof payload.sid !== 'string') {
        throw new AppError('UNAUTHORIZED');
      }
      return payload as unknown as AccessTokenClaims;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
      throw new AppError('UNAUTHORIZED');
    }
  }
}
