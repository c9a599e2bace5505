import type { AdminModel } from '@aiplatform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { toast } from '../../../api/notify';
import { reportError } from '../../../components/common/report-error';
import { modelKeys } from './model-queries';

/** A connection test of one model: the outcome is said in a message and kept on the row. */
export function useModelTest(model: AdminModel) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('testModel', { params: { id: model.id } }),
    onSuccess: (result) => {
      if (result.status === 'success')
        toast('success', t('catalog:models.test.success', { name: model.display_name, latency: result.latency_ms }));
      else
        toast('error', t('catalog:models.test.failed', { name: model.display_name, message: result.message }), {
          duration: 8,
        });
      queryClient.setQueryData<AdminModel[]>(modelKeys.list, (rows) =>
        rows?.map((row) => (row.id === result.model.id ? result.model : row)),
      );
    },
    onError: (error) => reportError(error, 'catalog:models.test.error'),
  });
}
