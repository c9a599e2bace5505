import { MESSAGE_SEARCH } from '@aiplatform/contracts';
import { call } from './call';

/** GET /chat/search; quiet on failure: the results list shows the error in place. */
export const chatSearchApi = {
  search: (q: string, signal?: AbortSignal) =>
    call('searchMessages', {
      query: { q, limit: MESSAGE_SEARCH.defaultLimit },
      silent: true,
      ...(signal ? { signal } : {}),
    }),
};

export const messageSearchKey = (q: string) => ['chat', 'message-search', q] as const;
