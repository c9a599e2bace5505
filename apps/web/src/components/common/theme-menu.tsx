import { CheckOutlined, DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { i18n } from '../../i18n';
import { registerThemeResources } from '../../i18n/theme-resources';
import { THEME_MODES, type ThemeMode } from '../../theme/theme-mode';

// The switch's words arrive with it (see theme-resources.ts).
registerThemeResources(i18n);

export const THEME_MODE_ICONS: Record<ThemeMode, ReactNode> = {
  system: <DesktopOutlined />,
  light: <SunOutlined />,
  dark: <MoonOutlined />,
};

/** Menu key of a theme choice, so it can sit in a menu beside other entries (the phone's user menu). */
export const THEME_KEY_PREFIX = 'theme:';

/** The three choices as menu entries, the current one ticked (the tick is what screen readers get too). */
export function themeMenuItems(t: TFunction, current: ThemeMode): NonNullable<MenuProps['items']> {
  return THEME_MODES.map((mode) => ({
    key: `${THEME_KEY_PREFIX}${mode}`,
    icon: THEME_MODE_ICONS[mode],
    label: t(`theme:mode.${mode}`),
    extra: mode === current ? <CheckOutlined aria-label={t('theme:current')} /> : undefined,
    'data-testid': `theme-option-${mode}`,
    'data-selected': mode === current,
  }));
}

/** The mode a clicked menu key names, or null for any other entry. */
export function themeModeOfKey(key: string): ThemeMode | null {
  if (!key.startsWith(THEME_KEY_PREFIX)) return null;
  const mode = key.slice(THEME_KEY_PREFIX.length);
  return (THEME_MODES as readonly string[]).includes(mode) ? (mode as ThemeMode) : null;
}
