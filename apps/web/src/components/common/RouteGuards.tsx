import type { ReactNode } from 'react';
import { Suspense, lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { toast } from '../../api/notify';
import { usePublicConfig } from '../../api/use-public-config';
import { useAuthStore } from '../../stores/auth-store';
import { PageLoading } from './PageLoading';

function RedirectToLogin() {
  const { t } = useTranslation();
  const location = useLocation();
  useEffect(() => {
    // A fixed key keeps one toast even when the effect runs twice.
    toast('warning', t('auth:loginRequired'), { key: 'login-required' });
  }, [t]);
  return <Navigate to="/login" replace state={{ from: location.pathname }} />;
}

/** Pages behind sign-in: visitors are warned and sent to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const leaving = useAuthStore((s) => s.leaving);
  if (isAuthenticated) return children;
  // After a sign-out or an ended session the app is already on its way to /login.
  return leaving ? <PageLoading /> : <RedirectToLogin />;
}

/**
 * Login and registration: signed-in users go straight to the dashboard. Arriving here
 * completes a sign-out, so later visits to protected pages warn again.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const leaving = useAuthStore((s) => s.leaving);
  useEffect(() => {
    if (leaving) useAuthStore.setState({ leaving: false });
  }, [leaving]);
  return isAuthenticated ? <Navigate to="/dashboard" replace /> : children;
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
