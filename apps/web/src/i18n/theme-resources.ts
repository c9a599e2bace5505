import type { Language } from '@aiplatform/contracts';
import type { i18n as I18n } from 'i18next';
import themeEnUS from './locales/en-US/theme.json';
import themeZhCN from './locales/zh-CN/theme.json';

/**
 * The theme switch's words. They travel with the switch (loaded after the sign-in pages'
 * first paint, and with the signed-in layout), not with the first bundle.
 */
export const THEME_NAMESPACES = ['theme'] as const;
export type ThemeNamespace = (typeof THEME_NAMESPACES)[number];

export const themeResources: Record<Language, Record<ThemeNamespace, object>> = {
  'zh-CN': { theme: themeZhCN },
  'en-US': { theme: themeEnUS },
};

/** Adds the theme namespace to a running i18next instance (idempotent). */
export function registerThemeResources(i18n: I18n): void {
  for (const [language, bundles] of Object.entries(themeResources)) {
    for (const [namespace, bundle] of Object.entries(bundles)) {
      if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, bundle);
    }
  }
}
