import type { CreatePromptBody, PromptListQuery, UpdatePromptBody } from '@aiplatform/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { promptKeys, promptsApi } from '../../api/prompts';

export function usePrompts(query: PromptListQuery, enabled = true) {
  return useQuery({ queryKey: promptKeys.list(query), queryFn: () => promptsApi.list(query), enabled });
}

export function usePromptVersions(id: number | null) {
  return useQuery({
    queryKey: promptKeys.versions(id ?? 0),
    queryFn: () => promptsApi.versions(id ?? 0),
    enabled: id !== null,
  });
}

/** Every change refreshes the lists and the versions. */
export function usePromptChanges() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: promptKeys.all });
  return {
    create: useMutation({ mutationFn: (body: CreatePromptBody) => promptsApi.create(body), onSuccess: refresh }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: number; body: UpdatePromptBody }) => promptsApi.update(id, body),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: number) => promptsApi.remove(id), onSuccess: refresh }),
  };
}
