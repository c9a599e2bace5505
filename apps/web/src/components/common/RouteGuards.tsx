import type { ReactNode } from 'react';
import { Suspense, lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { toast } from '../../api/notify';
import { usePublicConfig } from '../../api/use-public-config';
import { useAuthStore } from '../../stores/auth-store';
import { PageLoading } from './PageLoading';
import { afterSignInPath, loginPathFor } from './redirect-target';

function RedirectToLogin() {
  const { t } = useTranslation();
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    // A fixed key keeps one toast even when the effect runs twice.
    toast('warning', t('auth:loginRequired'), { key: 'login-required' });
  }, [t]);
  // The URL, not router state, carries the page: it survives reloading /login.
  return <Navigate to={loginPathFor(pathname + search + hash)} replace />;
}

/** Pages behind sign-in: visitors are warned and sent to /login, which brings them back afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const leaving = useAuthStore((s) => s.leaving);
  if (isAuthenticated) return children;
  // After a sign-out or an ended session the app is already on its way to /login.
  return leaving ? <PageLoading /> : <RedirectToLogin />;
}

/**
 * Login and registration: signed-in users go straight on to the page /login was asked to
 * return to (`?redirect=`), otherwise to the dashboard. Arriving here
 * completes a sign-out, so later visits to protected pages warn again.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const leaving = useAuthStore((s) => s.leaving);
  const { search } = useLocation();
  useEffect(() => {
    if (leaving) useAuthStore.setState({ leaving: false });
  }, [leaving]);
  return isAuthenticated ? <Navigate to={afterSignInPath(search)} replace /> : children;
}

// Loaded only when a custom homepage is switched on, so /login does not carry it.
const PublicHomePage = lazy(() => import('../../pages/home/PublicHomePage'));

/**
 * `/`: the dashboard for signed-in users; for visitors the custom homepage when the
 * administrator switched one on, otherwise the login page.
 */
export function HomeRedirect() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const { config, isLoading } = usePublicConfig();
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  if (isLoading) return <PageLoading />;
  if (!config.homepage.enabled) return <Navigate to="/login" replace />;
  return (
    <Suspense fallback={<PageLoading />}>
      <PublicHomePage />
    </Suspense>
  );
}
