import type { ResolvedTheme } from '../../theme/theme-mode';

/**
 * The chart builders pick series colours legible on white (3:1 for graphics). On the dark
 * surfaces those dark steps disappear, so each is swapped for a lighter step of the same hue.
 */
const DARK_COUNTERPARTS: Readonly<Record<string, string>> = {
  '#0958d9': '#4096ff',
  '#237804': '#73d13d',
  '#ad4e00': '#ffa940',
  '#d46b08': '#ffa940',
  '#531dab': '#b37feb',
  '#006d75': '#36cfc9',
  '#595959': '#a6a6a6',
};

function swapColors(value: unknown): unknown {
  if (typeof value === 'string') return DARK_COUNTERPARTS[value.toLowerCase()] ?? value;
  if (Array.isArray(value)) return value.map(swapColors);
  // Only plain option objects are walked: formatter functions and the like stay as they are.
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, swapColors(inner)]));
  }
  return value;
}

/**
 * An option for the theme in effect: unchanged in the light theme; in the dark one the series
 * colours lightened and the background left to the card (echarts' dark theme paints its own).
 */
export function chartOptionForTheme<T extends object>(option: T, theme: ResolvedTheme): T {
  if (theme === 'light') return option;
  return { ...(swapColors(option) as T), backgroundColor: 'transparent' };
}
