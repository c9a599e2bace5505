import type { BulkUsersBody } from '@aiplatform/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** One bulk action on the selected users; the server applies it to all or none. */
export function useBulkUsers(onDone: () => void) {
  const { t } = useTranslation();
  return useAdminMutation({
    mutationFn: (body: BulkUsersBody) => call('bulkUsers', { body }),
    invalidates: [adminKeys.users, adminKeys.groups],
    successText: (result, body) => {
      switch (body.action) {
        case 'enable':
          return t('admin:bulk.enabledDone', { count: result.updated });
        case 'disable':
          return t('admin:bulk.disabledDone', { count: result.updated });
        case 'move':
          return t('admin:bulk.movedDone', { count: result.updated });
      }
    },
    failureKey: 'admin:bulk.failed',
    onSuccess: onDone,
  });
}
