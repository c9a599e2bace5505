import { useCallback, useState, useSyncExternalStore } from 'react';

/** antd's `xl` and `xxl` breakpoints. */
const XL_QUERY = '(min-width: 1200px)';
const XXL_QUERY = '(min-width: 1600px)';

type Band = 'narrow' | 'xl' | 'xxl';

function subscribe(onChange: () => void): () => void {
  const queries = [XL_QUERY, XXL_QUERY].map((query) => window.matchMedia(query));
  queries.forEach((media) => media.addEventListener('change', onChange));
  return () => queries.forEach((media) => media.removeEventListener('change', onChange));
}

function currentBand(): Band {
  if (window.matchMedia(XXL_QUERY).matches) return 'xxl';
  return window.matchMedia(XL_QUERY).matches ? 'xl' : 'narrow';
}

export interface SidebarState {
  /** `drawer` on phones, `inline` otherwise. */
  mode: 'drawer' | 'inline';
  visible: boolean;
  toggle: () => void;
  close: () => void;
}

/**
 * The sidebar collapses by itself below the `xl` breakpoint and opens above it;
 * a manual toggle holds until the window crosses a breakpoint (`xl`, or 1600 px), after
 * which the breakpoint decides again. On phones it is a drawer.
 */
export function useSidebarState(isMobile: boolean): SidebarState {
  const band = useSyncExternalStore(subscribe, currentBand);
  const [override, setOverride] = useState<{ band: Band; collapsed: boolean } | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const collapsed = override?.band === band ? override.collapsed : band === 'narrow';

  const toggleInline = useCallback(() => setOverride({ band, collapsed: !collapsed }), [band, collapsed]);
  const toggleDrawer = useCallback(() => setDrawerOpen((open) => !open), []);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  if (isMobile) return { mode: 'drawer', visible: drawerOpen, toggle: toggleDrawer, close: closeDrawer };
  return { mode: 'inline', visible: !collapsed, toggle: toggleInline, close: keepOpen };
}

const keepOpen = () => undefined;
