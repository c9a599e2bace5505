import type { AdminModel } from '@aiplatform/contracts';
import { call } from '../../../api/call';
import { type ActiveSwitchTexts, CatalogActiveSwitch } from '../catalog/CatalogActiveSwitch';
import { MODEL_CHANGE_KEYS } from './model-queries';

const TEXTS: ActiveSwitchTexts = {
  label: 'catalog:models.activeLabel',
  enabledDone: 'catalog:models.enabledDone',
  disabledDone: 'catalog:models.disabledDone',
  failed: 'catalog:models.updateFailed',
};

/** Offers the model in chat or withdraws it. */
export function ModelActiveSwitch({ model }: { model: AdminModel }) {
  return (
    <CatalogActiveSwitch
      item={model}
      toggle={(is_active) => call('updateModel', { params: { id: model.id }, body: { is_active } })}
      invalidates={MODEL_CHANGE_KEYS}
      texts={TEXTS}
      testId={`model-active-${model.id}`}
    />
  );
}
