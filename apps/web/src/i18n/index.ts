import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@aiplatform/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { toSupportedLanguage } from './language';
import { createLanguageDetector } from './language-detector';
import { CORE_NAMESPACES, DEFAULT_NAMESPACE, coreResources } from './core-resources';

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

void i18n
  .use(createLanguageDetector())
  .use(initReactI18next)
  .init({
    resources: coreResources,
    ns: [...CORE_NAMESPACES],
    defaultNS: DEFAULT_NAMESPACE,
    supportedLngs: [...LANGUAGES],
    fallbackLng: FALLBACK_LANGUAGE,
    load: 'currentOnly',
    // Resources are bundled, so initialisation can finish before the first render.
    initAsync: false,
    interpolation: { escapeValue: false },
    // Keeps the browser console free of the library's advertisement.
    showSupportNotice: false,
  });

/** The active language, always one we ship. */
export function currentLanguage(): Language {
  return toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language) ?? FALLBACK_LANGUAGE;
}

/**
 * Translates a contracts message key such as `validation.email.required` (the form the
 * zod schemas and the server use) into the client's `validation:email.required`.
 */
export function translateMessageKey(key: string): string {
  const dot = key.indexOf('.');
  if (dot <= 0) return i18n.t(key);
  return i18n.t(`${key.slice(0, dot)}:${key.slice(dot + 1)}`);
}

export { i18n };
