import type { AdminModule } from '@aiplatform/contracts';
import { call } from '../../../api/call';
import { type ActiveSwitchTexts, CatalogActiveSwitch } from '../catalog/CatalogActiveSwitch';
import { MODULE_CHANGE_KEYS } from './module-queries';

const TEXTS: ActiveSwitchTexts = {
  label: 'catalog:modules.activeLabel',
  enabledDone: 'catalog:modules.enabledDone',
  disabledDone: 'catalog:modules.disabledDone',
  failed: 'catalog:modules.updateFailed',
};

/** Shows the module in the side menu or hides it (the server flips it). */
export function ModuleActiveSwitch({ module }: { module: AdminModule }) {
  return (
    <CatalogActiveSwitch
      item={module}
      toggle={() => call('toggleModule', { params: { id: module.id } })}
      invalidates={MODULE_CHANGE_KEYS}
      texts={TEXTS}
      testId={`module-active-${module.id}`}
    />
  );
}
