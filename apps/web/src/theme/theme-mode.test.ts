import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { darkAccentText, contrastRatio, readableOnDark, DARK_RAISED_BG } from './dark-theme';
import { type ThemeMode, THEME_MODE_STORAGE_KEY, parseThemeMode, resolveTheme } from './theme-mode';

const BOOT_SCRIPT = readFileSync(join(import.meta.dirname, '../../public/theme-boot.js'), 'utf8');

/** Runs public/theme-boot.js against a stored value and a system preference; returns what it set on <html>. */
function bootTheme(stored: string | null, systemDark: boolean) {
  const attributes: Record<string, string> = {};
  const style: Record<string, string> = {};
  runInNewContext(BOOT_SCRIPT, {
    localStorage: { getItem: (key: string) => (key === THEME_MODE_STORAGE_KEY ? stored : null) },
    matchMedia: (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' && systemDark }),
    document: { documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value), style } },
  });
  return { theme: attributes['data-theme'], colorScheme: style.colorScheme };
}

describe('theme mode', () => {
  it('reads a stored value; anything else (nothing, old or tampered values) follows the system', () => {
    expect(parseThemeMode('light')).toBe('light');
    expect(parseThemeMode('dark')).toBe('dark');
    expect(parseThemeMode('system')).toBe('system');
    expect(parseThemeMode(null)).toBe('system');
    expect(parseThemeMode('DARK')).toBe('system');
    expect(parseThemeMode('')).toBe('system');
  });

  it.each<[ThemeMode, boolean, 'light' | 'dark']>([
    ['system', false, 'light'],
    ['system', true, 'dark'],
    ['light', true, 'light'],
    ['light', false, 'light'],
    ['dark', false, 'dark'],
    ['dark', true, 'dark'],
  ])('%s with a system that prefers dark = %s gives %s', (mode, systemDark, expected) => {
    expect(resolveTheme(mode, systemDark)).toBe(expected);
  });

  it.each([null, 'system', 'light', 'dark', 'bogus'])(
    'the pre-paint script agrees with the app for stored %s, both system preferences',
    (stored) => {
      for (const systemDark of [false, true]) {
        const expected = resolveTheme(parseThemeMode(stored), systemDark);
        expect(bootTheme(stored, systemDark)).toEqual({ theme: expected, colorScheme: expected });
      }
    },
  );

  it('the pre-paint script follows the system when storage is blocked', () => {
    const attributes: Record<string, string> = {};
    runInNewContext(BOOT_SCRIPT, {
      localStorage: {
        getItem: () => {
          throw new Error('SecurityError');
        },
      },
      matchMedia: () => ({ matches: true }),
      document: { documentElement: { setAttribute: (n: string, v: string) => (attributes[n] = v), style: {} } },
    });
    expect(attributes['data-theme']).toBe('dark');
  });
});

describe('dark theme accent', () => {
  it('lightens the primary colour until text in it reaches AA on the raised dark surface', () => {
    for (const primary of [undefined, '#1677ff', '#0958d9', '#722ed1', '#00474f', '#000000']) {
      const text = darkAccentText(primary);
      expect(contrastRatio(text, DARK_RAISED_BG), `${primary}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps a colour that is already readable as it is', () => {
    expect(readableOnDark('#69b1ff')).toBe('#69b1ff');
  });
});
