import type { AdminModel } from '@aiplatform/contracts';
import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { MODEL_CHANGE_KEYS } from './model-queries';

/** Offers the model in chat or withdraws it. */
export function ModelActiveSwitch({ model }: { model: AdminModel }) {
  const { t } = useTranslation();
  const toggle = useAdminMutation({
    mutationFn: (is_active: boolean) => call('updateModel', { params: { id: model.id }, body: { is_active } }),
    invalidates: MODEL_CHANGE_KEYS,
    successText: (saved) =>
      saved.is_active
        ? t('catalog:models.enabledDone', { name: saved.display_name })
        : t('catalog:models.disabledDone', { name: saved.display_name }),
    failureKey: 'catalog:models.updateFailed',
  });
  return (
    <Switch
      size="small"
      checked={model.is_active}
      loading={toggle.isPending}
      onChange={(checked) => toggle.mutate(checked)}
      aria-label={t('catalog:models.activeLabel', { name: model.display_name })}
      data-testid={`model-active-${model.id}`}
    />
  );
}
