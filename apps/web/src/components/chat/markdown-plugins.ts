import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { Options } from 'react-markdown';

export type RehypePlugin = NonNullable<Options['rehypePlugins']>[number];

type Feature = 'highlight' | 'math';

/*
 * Syntax highlighting and KaTeX are large, so each waits in its own chunk until an
 * answer needs it. Every message that needs a feature re-renders once it arrives.
 */
let loaded: Partial<Record<Feature, RehypePlugin>> = {};
const loading = new Set<Feature>();
const listeners = new Set<() => void>();

const loadedFeatures = () => loaded;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/*
 * One importer per chunk, kept apart: written as one conditional the bundler wraps both in a
 * single preload that fetches only one chunk's style sheet (the code colours never came).
 */
const IMPORTERS: Record<Feature, () => Promise<{ plugin: RehypePlugin }>> = {
  highlight: () => import('./highlight-plugin'),
  math: () => import('./math-plugin'),
};

function importFeature(feature: Feature): Promise<{ plugin: RehypePlugin }> {
  return IMPORTERS[feature]();
}

function load(feature: Feature): void {
  if (loaded[feature] || loading.has(feature)) return;
  loading.add(feature);
  importFeature(feature).then(
    ({ plugin }) => {
      loaded = { ...loaded, [feature]: plugin };
      listeners.forEach((listener) => listener());
    },
    (error: unknown) => {
      // Plain code and TeX source stay readable; a later message may try again.
      console.error(`Could not load the ${feature} renderer`, error);
      loading.delete(feature);
    },
  );
}

export const needsHighlight = (text: string): boolean => text.includes('```') || text.includes('~~~');
export const needsMath = (text: string): boolean => text.includes('$');

/** The rehype plugins a text needs, starting their download when they are missing. */
export function useRehypePlugins(text: string): RehypePlugin[] {
  const highlight = needsHighlight(text);
  const math = needsMath(text);
  useEffect(() => {
    if (highlight) load('highlight');
    if (math) load('math');
  }, [highlight, math]);
  // Rendered to a string (tests), the snapshot is the same: the features loaded so far.
  const available = useSyncExternalStore(subscribe, loadedFeatures, loadedFeatures);
  return useMemo(() => {
    const plugins: RehypePlugin[] = [];
    // KaTeX first: it replaces the math code nodes before highlighting looks at code.
    if (math && available.math) plugins.push(available.math);
    if (highlight && available.highlight) plugins.push(available.highlight);
    return plugins;
  }, [available, highlight, math]);
}
