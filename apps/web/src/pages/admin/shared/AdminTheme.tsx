import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { useResolvedTheme } from '../../../theme/theme-store';

/** antd's hover colour of a selected row takes links below 4.5:1; these keep them readable. */
const SELECTED_ROW_HOVER = { light: '#dcecff', dark: '#112545' } as const;

/**
 * What only the admin screens add to the app-wide theme (components/common/AppProviders.tsx):
 * the hover colour of a selected table row. The nested provider inherits everything else.
 */
export function AdminTheme({ children }: { children: ReactNode }) {
  const resolved = useResolvedTheme();
  return (
    <ConfigProvider theme={{ components: { Table: { rowSelectedHoverBg: SELECTED_ROW_HOVER[resolved] } } }}>
      {children}
    </ConfigProvider>
  );
}
