import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { ACCESSIBLE_TOKENS, accessiblePrimary } from '../../../components/common/accessible-theme';

/**
 * The admin screens' additions to the app-wide accessible colours (components/common/
 * accessible-theme.ts): a nested provider keeps them when a screen is rendered on its own.
 */
export function AdminTheme({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <ConfigProvider
      theme={{
        token: { colorPrimary: accessiblePrimary(token.colorPrimary), ...ACCESSIBLE_TOKENS },
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
