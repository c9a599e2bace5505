import { useEffect, useSyncExternalStore } from 'react';

/*
 * The page on screen names itself here; only AppBridges writes document.title, joining that
 * name with the site name. A page without a name (e.g. the public homepage) shows the site
 * name alone instead of keeping the previous page's title.
 */
let pageTitle: string | null = null;
let owner: object | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function publish(title: string | null): void {
  pageTitle = title;
  listeners.forEach((listener) => listener());
}

/** Names the current page in the browser tab while the calling component is on screen. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    const mine = {};
    owner = mine;
    publish(title);
    return () => {
      // Only the latest caller clears it, so an outgoing page cannot blank its successor's name.
      if (owner !== mine) return;
      owner = null;
      publish(null);
    };
  }, [title]);
}

/** The current page's name, or null. */
export function usePageTitle(): string | null {
  return useSyncExternalStore(subscribe, () => pageTitle);
}

/** "Page · Site", or the site name alone. */
export function formatDocumentTitle(page: string | null, site: string): string {
  return page ? `${page} · ${site}` : site;
}
