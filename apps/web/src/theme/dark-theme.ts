import darkAlgorithm from 'antd/es/theme/themes/dark';

/*
 * Everything only the dark theme needs, in its own chunk: loaded before the first render when
 * the dark theme is in effect, or when someone switches to it, so the sign-in pages' first
 * bundle stays within its budget for everyone else.
 */

/** antd's default primary blue, which the light theme darkens for contrast. */
const ANTD_DEFAULT_PRIMARY = '#1677ff';
/**
 * The lightest surface text sits on in the dark theme (antd's raised surface: menus, pop-ups,
 * modals); a colour readable on it is readable on the darker page and cards too.
 */
export const DARK_RAISED_BG = '#1f1f1f';

/** antd's 0.45-white greys are below 4.5:1 on the dark surfaces; these reach it on the raised surface. */
const ACCESSIBLE_DARK_TOKENS = {
  colorTextSecondary: 'rgba(255, 255, 255, 0.68)',
  colorTextDescription: 'rgba(255, 255, 255, 0.68)',
  colorTextTertiary: 'rgba(255, 255, 255, 0.62)',
  colorTextPlaceholder: 'rgba(255, 255, 255, 0.55)',
  // Coloured tags write step 7 on step 1 of their palette: purple and geekblue stay below
  // 4.5:1 there, their step 8 reaches it. (Both spellings: they share one CSS variable.)
  purple7: '#ab7ae0',
  'purple-7': '#ab7ae0',
  geekblue7: '#7f9ef3',
  'geekblue-7': '#7f9ef3',
};

/**
 * The primary colour the dark algorithm starts from: antd's own blue by default (its dark
 * step keeps white text on buttons above 4.5:1), a colour chosen in the settings as it is.
 */
export function darkPrimarySeed(chosen: string | undefined): string {
  return chosen ?? ANTD_DEFAULT_PRIMARY;
}

function rgbOf(hex: string): [number, number, number] {
  let digits = hex.replace('#', '');
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const value = Number.parseInt(digits.slice(0, 6), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two hex colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

function mixWithWhite(hex: string, amount: number): string {
  return `#${rgbOf(hex)
    .map((c) =>
      Math.round(c + (255 - c) * amount)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The primary colour as text (links, selected tabs and menu items) on the dark surfaces: mixed
 * with white in small steps until it reaches 4.6:1 on the raised surface, so a site colour
 * chosen for the light theme stays recognisable and readable.
 */
export function readableOnDark(color: string, background: string = DARK_RAISED_BG): string {
  for (let step = 0; step <= 20; step++) {
    const mixed = mixWithWhite(color, step / 20);
    if (contrastRatio(mixed, background) >= 4.6) return mixed;
  }
  return '#ffffff';
}

/** Links and other primary-coloured text in the dark theme, for the site's primary colour (a hex colour or none). */
export function darkAccentText(chosen: string | undefined): string {
  return readableOnDark(darkPrimarySeed(chosen));
}

/** antd's red as text on the dark surfaces (its dark step, #dc4446, is 4.3:1 on a card). */
const DANGER_TEXT = '#ff4d4f';

/**
 * antd's dark theme: the dark algorithm, the primary as text made readable (antd writes
 * selected menu items, tabs and links in colours derived from the primary), links and danger
 * text readable, and dark text on solid red buttons (no red is both readable on the dark page
 * and under white text). Link and error colours are seeds that the algorithm would turn back
 * into darker steps, so they are set per component, where they are used as they are.
 */
export function darkThemeConfig(chosen: string | undefined) {
  const text = darkAccentText(chosen);
  const textHover = mixWithWhite(text, 0.25);
  const links = { colorLink: text, colorLinkHover: textHover, colorLinkActive: text };
  const danger = { colorError: DANGER_TEXT, colorErrorText: DANGER_TEXT };
  return {
    algorithm: darkAlgorithm,
    token: {
      colorPrimary: darkPrimarySeed(chosen),
      ...ACCESSIBLE_DARK_TOKENS,
      colorErrorText: DANGER_TEXT,
      colorPrimaryText: text,
      colorPrimaryTextHover: textHover,
      colorPrimaryTextActive: text,
      colorInfoText: text,
    },
    components: {
      Button: { ...links, ...danger, dangerColor: 'rgba(0, 0, 0, 0.88)' },
      Typography: { ...links, ...danger },
      Form: danger,
      Menu: { itemSelectedColor: text, dangerItemColor: DANGER_TEXT, dangerItemSelectedColor: DANGER_TEXT },
      Tabs: { itemSelectedColor: text, itemActiveColor: text, itemHoverColor: textHover, inkBarColor: text },
    },
  };
}
