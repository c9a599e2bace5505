import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, toast } from '../../api/notify';
import { reloadCurrentUser } from '../../api/session';
import { useAuthStore } from '../../stores/auth-store';

const OFFLINE_KEY = 'network-offline';
const RESTORED_MS = 2000;

/** A persistent error while offline; a short notice and a user refresh on return. */
export function useNetworkStatus(): void {
  const { t } = useTranslation();
  useEffect(() => {
    const onOffline = () => toast('error', t('common:network.offline'), { key: OFFLINE_KEY, duration: 0 });
    const onOnline = () => {
      dismissToast(OFFLINE_KEY);
      toast('success', t('common:network.restored'), { key: 'network-restored', duration: RESTORED_MS / 1000 });
      if (useAuthStore.getState().isAuthenticated) {
        reloadCurrentUser().catch((error: unknown) =>
          console.error('Could not reload the user after reconnecting', error),
        );
      }
    };
    if (!navigator.onLine) onOffline();
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    };
  }, [t]);
}
