import type { AdminSettings, SettingsUpdateBody } from '@aiplatform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/call';
import { toast } from '../../../api/notify';
import { adminKeys } from '../../../api/query-keys';
import { refreshPublicConfig } from '../../../api/use-public-config';
import { i18n } from '../../../i18n';
import { useAuthStore } from '../../../stores/auth-store';

/**
 * After a change the site must look changed at once, here and on the next sign-in page:
 * the public configuration (name, logo, favicon, colours, fonts) and the signed-in
 * user's site identity are read again. Failures only leave the old look until a reload.
 */
export async function refreshSiteLook(): Promise<void> {
  const me = call('getSession').then(
    (data) => useAuthStore.getState().setSessionData(data),
    (error: unknown) => console.warn('Could not re-read the session after a settings change', error),
  );
  await Promise.all([refreshPublicConfig(), me]);
}

/**
 * PUT /admin/settings with one tab's fields. Failures are left to the caller, which puts
 * validation messages on the fields; the answer replaces the cached settings.
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdateBody) => call('updateSettings', { body }),
    onSuccess: (saved: AdminSettings) => {
      queryClient.setQueryData(adminKeys.settings, saved);
      // The storage figures show the budget against what is stored.
      void queryClient.invalidateQueries({ queryKey: adminKeys.storageUsage });
      toast('success', i18n.t('settings:saved'));
      void refreshSiteLook();
    },
  });
}
