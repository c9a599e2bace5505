import type { AdminUser } from '@aiplatform/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** Enabling, disabling and retiring one account. */
export function useUserStatusActions() {
  const { t } = useTranslation();
  const setStatus = useAdminMutation({
    mutationFn: ({ user, status }: { user: AdminUser; status: 'active' | 'inactive' }) =>
      call('setUserStatus', { params: { id: user.id }, body: { status } }),
    invalidates: [adminKeys.users],
    successText: (user) =>
      user.status === 'active'
        ? t('admin:users.enabledDone', { name: user.username })
        : t('admin:users.disabledDone', { name: user.username }),
    failureKey: 'admin:users.statusFailed',
  });
  const retire = useAdminMutation({
    mutationFn: (user: AdminUser) => call('deleteUser', { params: { id: user.id } }),
    invalidates: [adminKeys.users, adminKeys.groups],
    successText: (_result, user) => t('admin:users.retiredDone', { name: user.username }),
    failureKey: 'admin:users.retireFailed',
  });
  return { setStatus, retire };
}
