import { QueryClient } from '@tanstack/react-query';

/*
 * The API client already toasts failures; automatic retries would repeat those toasts
 * and hammer a struggling server, so queries fail once and show what they have.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
