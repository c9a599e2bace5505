/** antd's default primary blue; white on it, or it on white, is 4.1:1, below the 4.5:1 of WCAG AA. */
export const ANTD_DEFAULT_PRIMARY = '#1677ff';
/** The next darker step of antd's blue: 6.2:1 against white. */
export const ACCESSIBLE_BLUE = '#0958d9';

/**
 * Colours with at least 4.5:1 contrast for small text on white, used on every screen: the
 * next darker step of antd's palette for links, danger and success, and darker greys for
 * secondary text, descriptions and placeholders (antd's #8c8c8c-like greys fail AA).
 */
export const ACCESSIBLE_TOKENS = {
  colorLink: ACCESSIBLE_BLUE,
  colorError: '#cf1322',
  colorSuccess: '#237804',
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
  colorTextDescription: 'rgba(0, 0, 0, 0.65)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
};

/** The primary colour to use: a colour chosen in the site settings as it is, antd's default darkened. */
export function accessiblePrimary(chosen: string | undefined): string {
  return !chosen || chosen.toLowerCase() === ANTD_DEFAULT_PRIMARY ? ACCESSIBLE_BLUE : chosen;
}
