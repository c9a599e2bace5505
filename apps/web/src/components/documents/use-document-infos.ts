import type { FileInfo } from '@aiplatform/contracts';
import { useQueries } from '@tanstack/react-query';
import { filesApi } from '../../api/documents';
import { documentKeys } from '../../api/document-keys';
import { pollWhileProcessing } from './document-attachments';

/**
 * The state of each attached document, asked again while it is being read. Chips and the
 * composer's send check read the same cache entries, so each document is polled once.
 */
export function useDocumentInfos(ids: readonly string[]): Map<string, FileInfo> {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: documentKeys.file(id),
      queryFn: () => filesApi.info(id),
      refetchInterval: (query: { state: { data: FileInfo | undefined } }) => pollWhileProcessing(query.state.data),
      staleTime: 0,
    })),
    combine: (results) => {
      const infos = new Map<string, FileInfo>();
      results.forEach((result, index) => {
        const id = ids[index];
        if (id && result.data) infos.set(id, result.data);
      });
      return infos;
    },
  });
}
