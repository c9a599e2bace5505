import { useSyncExternalStore } from 'react';
import type * as DarkThemeModule from './dark-theme';
import {
  DARK_SCHEME_QUERY,
  type ResolvedTheme,
  THEME_MODE_STORAGE_KEY,
  type ThemeMode,
  applyResolvedTheme,
  parseThemeMode,
  resolveTheme,
} from './theme-mode';

/** The dark theme's module, once loaded. */
export type DarkTheme = typeof DarkThemeModule;

export interface ThemeState {
  mode: ThemeMode;
  resolved: ResolvedTheme;
  /** The dark theme's code while the dark theme is in effect, else null. */
  dark: DarkTheme | null;
}

function readStoredMode(): ThemeMode {
  try {
    return parseThemeMode(localStorage.getItem(THEME_MODE_STORAGE_KEY));
  } catch {
    // Storage can be blocked (privacy settings): the system's choice still applies.
    return 'system';
  }
}

const systemQuery = window.matchMedia(DARK_SCHEME_QUERY);
const listeners = new Set<() => void>();
let dark: DarkTheme | null = null;
let darkLoading: Promise<DarkTheme> | null = null;
let state: ThemeState = { mode: readStoredMode(), resolved: 'light', dark: null };

function loadDark(): Promise<DarkTheme> {
  darkLoading ??= import('./dark-theme').then((module) => (dark = module));
  return darkLoading;
}

let generation = 0;

function commit(next: ThemeState): void {
  if (next.mode !== state.mode || next.resolved !== state.resolved || next.dark !== state.dark) {
    state = next;
    listeners.forEach((listener) => listener());
  }
  applyResolvedTheme(next.resolved);
}

/**
 * Applies a mode. The dark theme's chunk is fetched first, so the page and antd's components
 * change together; <html> keeps its current mark meanwhile (public/theme-boot.js already set
 * the right one on load).
 */
function update(mode: ThemeMode): Promise<void> {
  // Only the latest choice applies, even when an earlier one is still waiting for the chunk.
  const current = ++generation;
  const resolved = resolveTheme(mode, systemQuery.matches);
  if (resolved === 'light' || dark) {
    commit({ mode, resolved, dark: resolved === 'dark' ? dark : null });
    return Promise.resolve();
  }
  return loadDark().then(
    (module) => {
      if (current === generation) commit({ mode, resolved, dark: module });
    },
    () => {
      // The chunk did not load (offline): light rather than half dark.
      darkLoading = null;
      if (current === generation) commit({ mode, resolved: 'light', dark: null });
    },
  );
}

// Started when this module is first evaluated, before React renders anything (see main.tsx).
const ready = update(state.mode);
// `system` follows the operating system (or a test's emulated scheme) while the page is open.
systemQuery.addEventListener('change', () => void update(state.mode));
// Another tab chose a theme: this one follows.
window.addEventListener('storage', (event) => {
  if (event.key === THEME_MODE_STORAGE_KEY || event.key === null) void update(readStoredMode());
});

/** Waits until the theme in effect can be drawn; the entry awaits it before the first render. */
export function themeReady(): Promise<void> {
  return ready;
}

/** Stores the choice in this browser and applies it. */
export function setThemeMode(mode: ThemeMode): void {
  try {
    localStorage.setItem(THEME_MODE_STORAGE_KEY, mode);
  } catch {
    // Not stored, still applied for this page.
  }
  void update(mode);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen mode, the theme in effect and (in the dark theme) its code, kept current. */
export function useThemeState(): ThemeState {
  return useSyncExternalStore(subscribe, () => state);
}

/** The theme in effect: `light` or `dark`. */
export function useResolvedTheme(): ResolvedTheme {
  return useThemeState().resolved;
}
