import type { Language } from '@aiplatform/contracts';
import type { i18n as I18n } from 'i18next';
import chatEnUS from './locales/en-US/chat.json';
import dashboardEnUS from './locales/en-US/dashboard.json';
import layoutEnUS from './locales/en-US/layout.json';
import pagesEnUS from './locales/en-US/pages.json';
import profileEnUS from './locales/en-US/profile.json';
import shareEnUS from './locales/en-US/share.json';
import chatZhCN from './locales/zh-CN/chat.json';
import dashboardZhCN from './locales/zh-CN/dashboard.json';
import layoutZhCN from './locales/zh-CN/layout.json';
import pagesZhCN from './locales/zh-CN/pages.json';
import profileZhCN from './locales/zh-CN/profile.json';
import shareZhCN from './locales/zh-CN/share.json';

/**
 * Namespaces of the signed-in screens. They travel with the layout chunk instead of the
 * login bundle, which therefore does not grow as signed-in features add translations.
 */
export const APP_NAMESPACES = ['layout', 'dashboard', 'profile', 'pages', 'chat', 'share'] as const;
export type AppNamespace = (typeof APP_NAMESPACES)[number];

export const appResources: Record<Language, Record<AppNamespace, object>> = {
  'zh-CN': {
    layout: layoutZhCN,
    dashboard: dashboardZhCN,
    profile: profileZhCN,
    pages: pagesZhCN,
    chat: chatZhCN,
    share: shareZhCN,
  },
  'en-US': {
    layout: layoutEnUS,
    dashboard: dashboardEnUS,
    profile: profileEnUS,
    pages: pagesEnUS,
    chat: chatEnUS,
    share: shareEnUS,
  },
};

/** Adds the signed-in namespaces to a running i18next instance (idempotent). */
export function registerAppResources(i18n: I18n): void {
  for (const [language, bundles] of Object.entries(appResources)) {
    for (const [namespace, bundle] of Object.entries(bundles)) {
      if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, bundle);
    }
  }
}
