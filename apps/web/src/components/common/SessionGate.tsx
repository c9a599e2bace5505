import { type ReactNode, useEffect, useState } from 'react';
import { restoreSession } from '../../api/session';
import { useAuthStore } from '../../stores/auth-store';
import { PageLoading } from './PageLoading';

/**
 * Holds the app back while a stored session is checked (refresh if expired, then the
 * current user), so no page renders with a dead token. Visitors without one pass at once.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const [checking, setChecking] = useState(() => useAuthStore.getState().accessToken !== null);
  useEffect(() => {
    if (!checking) return;
    void restoreSession().finally(() => setChecking(false));
  }, [checking]);
  return checking ? <PageLoading /> : children;
}
