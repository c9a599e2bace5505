import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/call';
import { queryKeys } from '../../../api/query-keys';

export const moduleKeys = {
  list: ['admin', 'modules', 'list'] as const,
};

/** What a change to a module makes stale: the admin list and every user's side menu. */
export const MODULE_CHANGE_KEYS = [moduleKeys.list, queryKeys.userModules] as const;

export function useAdminModules() {
  return useQuery({ queryKey: moduleKeys.list, queryFn: () => call('listModules') });
}
