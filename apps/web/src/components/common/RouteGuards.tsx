import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { toast } from '../../api/notify';
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

/** `/`: the dashboard for signed-in users, the login page for everyone else. */
export function HomeRedirect() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  return <Navigate to={isAuthenticated ? '/dashboard' : '/login'} replace />;
}
