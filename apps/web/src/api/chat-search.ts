import type { MessageSearchResult } from '@aiplatform/contracts';
import { MESSAGE_SEARCH } from '@aiplatform/contracts';
import { request } from './http';

/** GET /chat/search; quiet on failure: the results list shows the error in place. */
export const chatSearchApi = {
  search: (q: string, signal?: AbortSignal) =>
    request<MessageSearchResult>({
      method: 'GET',
      url: '/chat/search',
      params: { q, limit: MESSAGE_SEARCH.defaultLimit },
      silent: true,
      ...(signal ? { signal } : {}),
    }),
};

export const messageSearchKey = (q: string) => ['chat', 'message-search', q] as const;
