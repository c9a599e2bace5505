import crypto from 'node:crypto';
import { type AccessTokenClaims, type Role, expiresInToSeconds } from '@aiplatform/contracts';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AppError } from './errors.js';

export interface AccessTokenInput {
  userId: number;
  email: string;
  role: Role;
  sid: string;
}

/** Signs and verifies access JWTs (HS256) with the application secret. */
export class AccessTokens {
  private readonly key: Uint8Array;
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
