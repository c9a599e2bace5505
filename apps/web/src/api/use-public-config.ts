import type { PublicSystemConfig } from '@aiplatform/contracts';
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../stores/auth-store';
import { DEFAULT_PUBLIC_CONFIG, fetchPublicConfig } from './public-config';

/*
 * The public configuration is read once per page load, before anyone signs in. A tiny
 * shared cache serves it instead of the query library, which only signed-in pages load.
 */
let current: PublicSystemConfig | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function publish(config: PublicSystemConfig): void {
  current = config;
  listeners.forEach((listener) => listener());
}

function ensureLoaded(): void {
  loading ??= fetchPublicConfig().then(publish);
}

/**
 * Reads the public configuration again, e.g. after an administrator saved the settings,
 * so name, logo, favicon, colours and fonts change on this page at once.
 */
export async function refreshPublicConfig(): Promise<void> {
  const next = fetchPublicConfig().then(publish);
  loading = next;
  await next;
}

/** The public configuration; `config` holds the defaults until (or unless) the server answers. */
export function usePublicConfig(): { config: PublicSystemConfig; isLoading: boolean } {
  const config = useSyncExternalStore(subscribe, () => current);
  useEffect(ensureLoaded, []);
  return { config: config ?? DEFAULT_PUBLIC_CONFIG, isLoading: config === null };
}

/**
 * The site identity to show: a signed-in user's group may override name and logo; an
 * empty name means the translated default name.
 */
export function useSiteBranding(): { name: string; logo: string } {
  const { t } = useTranslation();
  const { config } = usePublicConfig();
  const siteConfig = useAuthStore((s) => (s.isAuthenticated ? s.siteConfig : null));
  const name = siteConfig?.name || config.site.name || t('common:defaultSiteName');
  const logo = siteConfig?.logo || config.site.logo;
  return { name, logo };
}
