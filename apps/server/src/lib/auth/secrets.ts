import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The application secret signs tokens and keys HMACs and encryption. It comes from
 * APP_SECRET, or from a random key generated once into the data dir (mode 0600), so a
 * fresh install is secure without configuration and restarts keep sessions valid.
 */
export function resolveAppSecret(appSecret: string | undefined, dataDir: string): string {
  if (appSecret) return appSecret;
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  createSecretFile(file);
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * Writes a new key in full under a name of its own, then links it into place, which fails
 * when the file exists. Instances sharing the data dir and starting together thus all use
 * the key of the first one, and none reads a half-written file (an empty key).
 */
function createSecretFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  const draft = `${file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, secret, { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file system without hard links: an exclusive create, at least never overwriting.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') {
      writeIfMissing(file, secret);
    } else if (code !== 'EEXIST') {
      throw err;
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

function writeIfMissing(file: string, secret: string): void {
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

export function hmac(secret: string, value: string): string {
  return crypto.createHmac('sha256', secret).update(value).digest('hex');
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function timingSafeEqualHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && crypto.timingSafeEqual(ba, bb);
}
