import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/call';
import { queryKeys } from '../../../api/query-keys';

/** Cache keys of the model list; a change also reaches the chat's model picker. */
export const modelKeys = {
  list: ['admin', 'models', 'list'] as const,
};

/** What a change to a model makes stale: the admin list and the models offered in chat. */
export const MODEL_CHANGE_KEYS = [modelKeys.list, queryKeys.chatModels] as const;

/** Every model, in menu order (the list is short and shown whole, so drag sorting sees every row). */
export function useAdminModels() {
  return useQuery({ queryKey: modelKeys.list, queryFn: () => call('listModels') });
}
