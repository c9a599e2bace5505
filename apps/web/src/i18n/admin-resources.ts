import type { Language } from '@aiplatform/contracts';
import type { i18n as I18n } from 'i18next';
import adminEnUS from './locales/en-US/admin.json';
import adminZhCN from './locales/zh-CN/admin.json';
import catalogEnUS from './locales/en-US/catalog.json';
import catalogZhCN from './locales/zh-CN/catalog.json';
import settingsEnUS from './locales/en-US/settings.json';
import settingsZhCN from './locales/zh-CN/settings.json';
import statsEnUS from './locales/en-US/stats.json';
import statsZhCN from './locales/zh-CN/stats.json';

/**
 * The administration screens' namespaces (`catalog`: AI models and modules; `settings`:
 * system settings, homepage, announcements editor; `stats`: usage statistics). It travels with the admin chunks, so neither
 * the login bundle nor the signed-in layout grows with the admin translations.
 */
export const ADMIN_NAMESPACES = ['admin', 'catalog', 'settings', 'stats'] as const;
export type AdminNamespace = (typeof ADMIN_NAMESPACES)[number];

export const adminResources: Record<Language, Record<AdminNamespace, object>> = {
  'zh-CN': { admin: adminZhCN, catalog: catalogZhCN, settings: settingsZhCN, stats: statsZhCN },
  'en-US': { admin: adminEnUS, catalog: catalogEnUS, settings: settingsEnUS, stats: statsEnUS },
};

/** Adds the admin namespace to a running i18next instance (idempotent). */
export function registerAdminResources(i18n: I18n): void {
  for (const [language, bundles] of Object.entries(adminResources)) {
    for (const [namespace, bundle] of Object.entries(bundles)) {
      if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, bundle);
    }
  }
}
