import type { CreateModelBody, DiscoverModelsBody } from '@aiplatform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { toast } from '../../../api/notify';
import { errorText, reportError } from '../../../components/common/report-error';
import { canCreateDiscovered } from './model-form-values';
import { MODEL_CHANGE_KEYS } from './model-queries';

export interface Discovered {
  ids: string[];
  /** False when the list was read with a stored key, which new models cannot be given. */
  canCreate: boolean;
}

interface CreateOutcome {
  name: string;
  error: string | null;
}

/** Asks the provider which models it offers, and adds the chosen ones (one create each). */
export function useDiscoverModels() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [found, setFound] = useState<Discovered | null>(null);

  const discover = useMutation({
    mutationFn: (body: DiscoverModelsBody) => call('discoverModels', { body }),
    onSuccess: (result, body) => {
      if (result.models.length === 0) toast('info', t('catalog:discover.none'));
      else setFound({ ids: result.models, canCreate: canCreateDiscovered(body) });
    },
    onError: (error) => reportError(error, 'catalog:discover.failed'),
  });

  const create = useMutation({
    mutationFn: async (bodies: CreateModelBody[]): Promise<CreateOutcome[]> => {
      const outcomes: CreateOutcome[] = [];
      // One after the other: the server answers each name's conflict on its own.
      for (const body of bodies) {
        try {
          await call('createModel', { body, silent: true });
          outcomes.push({ name: body.name, error: null });
        } catch (error) {
          outcomes.push({ name: body.name, error: errorText(error, 'catalog:models.createFailed') });
        }
      }
      return outcomes;
    },
    onSuccess: async (outcomes) => {
      const failed = outcomes.filter((o) => o.error !== null);
      const added = outcomes.length - failed.length;
      if (failed.length === 0) toast('success', t('catalog:discover.addedAll', { count: added }));
      else
        toast(
          added > 0 ? 'warning' : 'error',
          t('catalog:discover.addedSome', {
            added,
            total: outcomes.length,
            failed: failed.map((o) => `${o.name} (${o.error})`).join('; '),
          }),
          { duration: 10 },
        );
      await Promise.all(MODEL_CHANGE_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });

  return { found, close: () => setFound(null), discover, create };
}
