import { FALLBACK_LANGUAGE, type Language } from '@aiplatform/contracts';

/** A plain BCP 47 tag (`en`, `zh-CN`, `zh-Hans`); anything else may be an injection attempt. */
const SAFE_LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/;

/** The localStorage entry that remembers the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/**
 * Maps a detected language tag onto a supported language. Unsafe values and languages
 * we do not ship give `undefined`, so detection moves on to the next source.
 */
export function toSupportedLanguage(value: unknown): Language | undefined {
  if (typeof value !== 'string' || !SAFE_LANGUAGE_TAG.test(value)) return undefined;
  const lower = value.toLowerCase();
  if (lower.startsWith('en')) return 'en-US';
  if (lower.startsWith('zh')) return 'zh-CN';
  return undefined;
}

/** The first supported language among detected candidates, else the fallback. */
export function pickDetectedLanguage(candidates: readonly unknown[]): Language {
  for (const candidate of candidates) {
    const language = toSupportedLanguage(candidate);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}
