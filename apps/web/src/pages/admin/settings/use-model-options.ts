import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminModels } from '../models/model-queries';

/**
 * Models as options for the default model. The current default stays choosable even when
 * it is no longer in the list (deleted, or the list could not be read), marked as such.
 */
export function useModelOptions(current: string) {
  const { t } = useTranslation();
  // The AI models tab's own list: a model added or renamed there is offered here at once.
  const query = useAdminModels();
  const options = useMemo(() => {
    const list = (query.data ?? []).map((model) => ({
      value: model.name,
      label:
        model.display_name && model.display_name !== model.name ? `${model.display_name} (${model.name})` : model.name,
      disabled: !model.is_active && model.name !== current,
    }));
    if (current && !list.some((option) => option.value === current)) {
      list.push({ value: current, label: t('settings:basic.modelMissing', { name: current }), disabled: false });
    }
    return list;
  }, [query.data, current, t]);
  return { options, loading: query.isLoading };
}
