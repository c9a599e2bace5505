import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';

/** antd's default primary blue; white on it, or it on white, is 4.1:1, below the 4.5:1 of WCAG AA. */
const ANTD_DEFAULT_PRIMARY = '#1677ff';
/** The next darker step of antd's blue: 6.2:1 against white. */
const ACCESSIBLE_BLUE = '#0958d9';

/**
 * Colours of the admin screens with at least 4.5:1 contrast for their small text: the next
 * darker step of antd's palette for links, buttons, danger actions and success tags, and
 * darker greys for secondary text and placeholders (coloured tags: see AdminTags). A
 * primary colour chosen in the site settings is kept as it is.
 */
export function AdminTheme({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const inheritedPrimary = token.colorPrimary.toLowerCase();
  return (
    <ConfigProvider
      theme={{
        token: {
          ...(inheritedPrimary === ANTD_DEFAULT_PRIMARY ? { colorPrimary: ACCESSIBLE_BLUE } : {}),
          colorLink: ACCESSIBLE_BLUE,
          colorError: '#cf1322',
          colorSuccess: '#237804',
          colorSuccessBg: '#f6ffed',
          colorSuccessBorder: '#b7eb8f',
          colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
          colorTextDescription: 'rgba(0, 0, 0, 0.65)',
          colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
        },
        components: {
          // antd's hover colour of a selected row is dark enough to take links below 4.5:1.
          Table: { rowSelectedHoverBg: '#dcecff' },
        },
      }}
    >
      {children}
    </ConfigProvider>
  );
}
