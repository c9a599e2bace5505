import type { SecretBox } from '../../lib/auth/secret-box.js';

/** Shorter keys show no characters at all: four of them would give away too much. */
const MIN_KEY_FOR_HINT = 8;

/** "…" and the last four characters, so an administrator can tell keys apart without seeing one. */
export function keyHint(plain: string): string {
  return plain.length >= MIN_KEY_FOR_HINT ? `…${plain.slice(-4)}` : '…';
}

/** What the administration may know about a stored key. */
export interface KeyFacts {
  set: boolean;
  /** null without a key, or when the stored key can no longer be decrypted. */
  hint: string | null;
}

/** Decrypts only to derive the hint; the plain key goes nowhere else. */
export function keyFacts(box: SecretBox, sealed: string | null): KeyFacts {
  if (!sealed) return { set: false, hint: null };
  try {
    return { set: true, hint: keyHint(box.decrypt(sealed)) };
  } catch {
    // Sealed under another application secret: it is there, but unusable until entered again.
    return { set: true, hint: null };
  }
}

/** The plain key for a call, or undefined without one; throws when it cannot be decrypted. */
export function openKey(box: SecretBox, sealed: string | null): string | undefined {
  return sealed ? box.decrypt(sealed) : undefined;
}

/** Replaces every occurrence of the key in a text that may echo it (an upstream error message). */
export function maskKey(text: string, key: string | undefined): string {
  return key ? text.split(key).join('***') : text;
}
