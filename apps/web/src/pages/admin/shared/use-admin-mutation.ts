import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../api/notify';
import { reportError } from '../../../components/common/report-error';

interface AdminMutationOptions<TVariables, TResult> {
  mutationFn: (variables: TVariables) => Promise<TResult>;
  /** Queries whose data the change makes stale (prefix keys cover their lists and details). */
  invalidates: readonly QueryKey[];
  /** The success toast: says what happened, e.g. "Added 100 credits to alice". */
  successText: (result: TResult, variables: TVariables) => string;
  /** Shown when the server gave no message of its own. */
  failureKey: string;
  onSuccess?: (result: TResult, variables: TVariables) => void;
}

/**
 * An admin write: on success it refreshes what changed and says so; on failure it shows
 * the server's translated reason (the API client already toasts 403/5xx by itself).
 */
export function useAdminMutation<TVariables, TResult>(options: AdminMutationOptions<TVariables, TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result, variables) => {
      toast('success', options.successText(result, variables));
      options.onSuccess?.(result, variables);
      await Promise.all(options.invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: (error) => reportError(error, options.failureKey),
  });
}
