import type { AdminModule } from '@aiplatform/contracts';
import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { MODULE_CHANGE_KEYS } from './module-queries';

/** Shows the module in the side menu or hides it. */
export function ModuleActiveSwitch({ module }: { module: AdminModule }) {
  const { t } = useTranslation();
  const toggle = useAdminMutation({
    mutationFn: () => call('toggleModule', { params: { id: module.id } }),
    invalidates: MODULE_CHANGE_KEYS,
    successText: (saved) =>
      saved.is_active
        ? t('catalog:modules.enabledDone', { name: saved.display_name })
        : t('catalog:modules.disabledDone', { name: saved.display_name }),
    failureKey: 'catalog:modules.updateFailed',
  });
  return (
    <Switch
      size="small"
      checked={module.is_active}
      loading={toggle.isPending}
      onChange={() => toggle.mutate()}
      aria-label={t('catalog:modules.activeLabel', { name: module.display_name })}
      data-testid={`module-active-${module.id}`}
    />
  );
}
