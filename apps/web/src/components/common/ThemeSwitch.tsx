import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { setThemeMode, useThemeState } from '../../theme/theme-store';
import { THEME_MODE_ICONS, themeMenuItems, themeModeOfKey } from './theme-menu';

/**
 * The theme choice (follow the system, light, dark) in the header and beside the language
 * switch of the sign-in pages. The button shows the current choice's icon; its name says it.
 * A default export, so the sign-in pages can load it (and antd's menu) after their first paint.
 */
export default function ThemeSwitch() {
  const { t } = useTranslation();
  const { mode } = useThemeState();
  const label = t('theme:label', { mode: t(`theme:mode.${mode}`) });
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: themeMenuItems(t, mode),
        onClick: ({ key }) => {
          const next = themeModeOfKey(key);
          if (next) setThemeMode(next);
        },
      }}
    >
      <Button
        type="text"
        icon={THEME_MODE_ICONS[mode]}
        aria-label={label}
        title={label}
        data-testid="theme-switch"
        data-mode={mode}
      />
    </Dropdown>
  );
}
