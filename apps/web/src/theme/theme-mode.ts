/**
 * The colour theme: what the person chose (`system`, `light`, `dark`; stored in this browser)
 * and the theme in effect, which for `system` follows the operating system's setting live.
 * public/theme-boot.js applies the same rules before the first paint; a unit test keeps both
 * in step.
 */
export type ThemeMode = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_MODES: readonly ThemeMode[] = ['system', 'light', 'dark'];
export const THEME_MODE_STORAGE_KEY = 'theme-mode';
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

/** A stored value as a mode; anything unknown (or nothing) means `system`. */
export function parseThemeMode(stored: string | null | undefined): ThemeMode {
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The theme in effect for a mode and the system's current preference. */
export function resolveTheme(mode: ThemeMode, systemPrefersDark: boolean): ResolvedTheme {
  if (mode === 'system') return systemPrefersDark ? 'dark' : 'light';
  return mode;
}

/** Marks `<html>` so the style sheets pick their colours and the browser its form controls and scrollbars. */
export function applyResolvedTheme(theme: ResolvedTheme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}
