import type { LanguageDetectorModule } from 'i18next';
import { LANGUAGE_STORAGE_KEY, pickDetectedLanguage } from './language';

/** Where a language preference can come from, in the order they are asked. */
export interface LanguageSources {
  /** The language chosen earlier on this browser. */
  stored(): string | null;
  /** The browser's languages, most preferred first. */
  browser(): readonly string[];
  /** The page's own `<html lang>`. */
  page(): string | null;
  remember(language: string): void;
}

/** localStorage can throw (storage disabled, private modes): then nothing is remembered. */
const pageSources: LanguageSources = {
  stored: () => {
    try {
      return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  browser: () =>
    typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language].filter(Boolean),
  page: () => (typeof document === 'undefined' ? null : document.documentElement.getAttribute('lang')),
  remember: (language) => {
    try {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // The choice then lasts for this visit only.
    }
  },
};

/**
 * The language for i18next: the stored choice, else the browser's, else the page's, each
 * taken only when it is a safe tag of a language we ship; the fallback otherwise. The
 * choice is remembered whenever the language changes. Written here rather than taken from
 * i18next-browser-languagedetector, whose other sources (cookies, query, session) would
 * only add to the script /login must load.
 */
export function createLanguageDetector(sources: LanguageSources = pageSources): LanguageDetectorModule {
  return {
    type: 'languageDetector',
    detect: () => pickDetectedLanguage([sources.stored(), ...sources.browser(), sources.page()]),
    cacheUserLanguage: (language) => {
      // i18next's key-showing pseudo language is never a user's choice.
      if (language !== 'cimode') sources.remember(language);
    },
  };
}
