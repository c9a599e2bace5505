import crypto from 'node:crypto';
import { type JWK, calculateJwkThumbprint } from 'jose';

/** Fixed label of the derivation: changing it changes every instance's key at once. */
const KEY_INFO = 'aiplatform module hand-off ed25519 v1';
/** An Ed25519 private key in PKCS#8 DER is this fixed prefix followed by the 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export const SIGNING_ALG = 'EdDSA';

export interface ModuleSigningKey {
  privateKey: crypto.KeyObject;
  kid: string;
  /** The public half as published to modules. */
  jwks: { keys: JWK[] };
}

/**
 * The Ed25519 key pair that signs hand-off tokens, derived from the application secret
 * (HKDF-SHA256 → 32-byte seed). Every instance sharing the secret signs with the same key
 * without storing one, and the key id (the public key's JWK thumbprint) is stable too,
 * so a module's cached key set stays valid across restarts and instances.
 */
export async function deriveModuleSigningKey(appSecret: string): Promise<ModuleSigningKey> {
  const seed = Buffer.from(crypto.hkdfSync('sha256', appSecret, Buffer.alloc(0), KEY_INFO, 32));
  const privateKey = crypto.createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicJwk = crypto.createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  return { privateKey, kid, jwks: { keys: [{ ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' }] } };
}
