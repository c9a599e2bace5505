import type { AdminModel } from '@aiplatform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { toast } from '../../../api/notify';
import { queryKeys } from '../../../api/query-keys';
import { reportError } from '../../../components/common/report-error';
import { moveRow, renumber, sortOrdersPayload } from './model-sort';
import { modelKeys } from './model-queries';

type SortOrders = { id: number; sort_order: number }[];

/**
 * A dropped row: the list shows the new order at once and the changed sort orders are
 * saved; a refused save brings back the server's order.
 */
export function useModelSort() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (sort_orders: SortOrders) => call('sortModels', { body: { sort_orders } }),
    onSuccess: () => {
      toast('success', t('catalog:models.sortedDone'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.chatModels });
    },
    onError: (error) => reportError(error, 'catalog:models.sortFailed'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: modelKeys.list }),
  });
  const move = (activeId: number, overId: number) => {
    const rows = queryClient.getQueryData<AdminModel[]>(modelKeys.list) ?? [];
    const moved = moveRow(rows, activeId, overId);
    const sortOrders = sortOrdersPayload(moved);
    if (sortOrders.length === 0) return;
    void queryClient.cancelQueries({ queryKey: modelKeys.list });
    queryClient.setQueryData(modelKeys.list, renumber(moved));
    save.mutate(sortOrders);
  };
  return { move, saving: save.isPending };
}
