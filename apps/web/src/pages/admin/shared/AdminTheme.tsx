import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { useAppTheme } from '../../../components/common/use-app-theme';
import { useResolvedTheme } from '../../../theme/theme-store';

/** antd's hover colour of a selected row takes links below 4.5:1; these keep them readable. */
const SELECTED_ROW_HOVER = { light: '#dcecff', dark: '#112545' } as const;

/**
 * What only the admin screens add to the app-wide theme (components/common/use-app-theme.ts):
 * the hover colour of a selected table row.
 */
export function AdminTheme({ children }: { children: ReactNode }) {
  const { theme } = useAppTheme();
  const resolved = useResolvedTheme();
  return (
    <ConfigProvider
      theme={{
        ...theme,
        // The whole app theme again rather than inherited (see use-app-theme.ts).
        inherit: false,
        components: { ...theme.components, Table: { rowSelectedHoverBg: SELECTED_ROW_HOVER[resolved] } },
      }}
    >
      {children}
    </ConfigProvider>
  );
}
