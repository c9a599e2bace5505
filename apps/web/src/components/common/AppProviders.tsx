import { ConfigProvider } from 'antd';
import useMessage from 'antd/es/message/useMessage';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { bindMessageApi } from '../../api/notify';
import { toSupportedLanguage } from '../../i18n/language';
import { useThemeState } from '../../theme/theme-store';
import { useAppTheme } from './use-app-theme';

/** Toasts 80 px from the top, 3 s, at most 3 at once. */
const MESSAGE_CONFIG = { top: 80, duration: 3, maxCount: 3 };

/**
 * Owns the toast API inside the theme and locale context. antd's message hook is used
 * rather than its <App> wrapper, which would add modal and notification code to /login.
 */
function MessageHost() {
  const [messageApi, holder] = useMessage(MESSAGE_CONFIG);
  // Layout effects run before any passive effect, so the first requests can already toast.
  useLayoutEffect(() => bindMessageApi(messageApi), [messageApi]);
  return holder;
}

/** antd locale and theme (see use-app-theme.ts) plus the toast host. */
export function AppProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { theme, primary: colorPrimary } = useAppTheme();
  const { dark } = useThemeState();
  // The page's own style sheets write links and highlights in the same readable accent; the
  // light theme's is the primary colour itself (styles.css).
  useLayoutEffect(() => {
    const root = document.documentElement.style;
    if (dark) root.setProperty('--accent-text', dark.darkAccentText(colorPrimary));
    else root.removeProperty('--accent-text');
  }, [colorPrimary, dark]);
  return (
    <ConfigProvider locale={toSupportedLanguage(i18n.language) === 'en-US' ? enUS : zhCN} theme={theme}>
      <MessageHost />
      {children}
    </ConfigProvider>
  );
}
