import type { AdminModule } from '@aiplatform/contracts';
import { Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { MODULE_CHANGE_KEYS } from './module-queries';

/** Edit and delete (confirmed). */
export function ModuleRowActions({ module, onEdit }: { module: AdminModule; onEdit: (module: AdminModule) => void }) {
  const { t } = useTranslation();
  const remove = useAdminMutation({
    mutationFn: () => call('deleteModule', { params: { id: module.id } }),
    invalidates: MODULE_CHANGE_KEYS,
    successText: () => t('catalog:modules.deletedDone', { name: module.display_name }),
    failureKey: 'catalog:modules.deleteFailed',
  });
  return (
    <Space size={0} wrap={false}>
      <Button type="link" size="small" onClick={() => onEdit(module)} data-testid={`module-edit-${module.id}`}>
        {t('admin:actions.edit')}
      </Button>
      <Popconfirm
        title={t('catalog:modules.confirmDelete', { name: module.display_name })}
        description={t('catalog:modules.confirmDeleteHint')}
        okText={t('admin:actions.delete')}
        okButtonProps={{ danger: true }}
        cancelText={t('common:cancel')}
        onConfirm={() => remove.mutateAsync().catch(() => undefined)}
      >
        <Button type="link" size="small" danger data-testid={`module-delete-${module.id}`}>
          {t('admin:actions.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
