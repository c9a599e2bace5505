import { type ReactNode, Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicConfig, useSiteBranding } from '../../api/use-public-config';
import { LanguageSwitch } from './LanguageSwitch';
import { SiteLogo } from './SiteLogo';
import { useDocumentTitle } from './use-document-title';

// antd's menu is not part of the first bundle of these pages: the switch comes right after.
const ThemeSwitch = lazy(() => import('./ThemeSwitch'));

/**
 * The frame of the login and registration screens: brand, language and theme switches, one panel.
 * Plain elements rather than antd Card/Typography keep the first bundle small.
 */
export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { name } = useSiteBranding();
  const { config } = usePublicConfig();
  useDocumentTitle(title);
  return (
    <div className="auth-shell">
      <div className="auth-shell-language">
        <LanguageSwitch />
        <Suspense fallback={<span className="auth-shell-switch-placeholder" />}>
          <ThemeSwitch />
        </Suspense>
      </div>
      <main className="auth-card">
        <div className="auth-brand">
          <SiteLogo size={48} />
          <h1 className="auth-site-name">{name}</h1>
          <p className="auth-site-description">{config.site.description || t('common:defaultSiteDescription')}</p>
        </div>
        <h2 className="auth-title">{title}</h2>
        {children}
      </main>
    </div>
  );
}
