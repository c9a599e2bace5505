import type { ThemeConfig } from 'antd';
import { useMemo } from 'react';
import { usePublicConfig } from '../../api/use-public-config';
import { useThemeState } from '../../theme/theme-store';
import { ACCESSIBLE_TOKENS, accessiblePrimary } from './accessible-theme';
import { primaryColorOf } from './apply-public-config';
import { usePrefersReducedMotion } from './use-media-query';

/**
 * antd's theme for the whole app: light or dark as chosen, the primary colour from the public
 * configuration, every colour with AA contrast for small text, no animations when the system
 * asks for reduced motion (WCAG 2.3.3). A nested provider that adds to it must start from this
 * whole config: inheriting would re-derive the dark theme's readable colours from their seeds.
 */
export function useAppTheme(): { theme: ThemeConfig; primary: string | undefined } {
  const { config } = usePublicConfig();
  const primary = primaryColorOf(config);
  const reducedMotion = usePrefersReducedMotion();
  // The dark theme's code is present whenever the dark theme is in effect (theme-store).
  const { dark } = useThemeState();
  const theme = useMemo((): ThemeConfig => {
    const motion = reducedMotion ? { motion: false } : {};
    if (dark) {
      const darkTheme = dark.darkThemeConfig(primary);
      return { ...darkTheme, token: { ...darkTheme.token, ...motion } };
    }
    return { token: { colorPrimary: accessiblePrimary(primary), ...ACCESSIBLE_TOKENS, ...motion } };
  }, [primary, reducedMotion, dark]);
  return { theme, primary };
}
