import type { AdminModel } from '@aiplatform/contracts';
import { Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { MODEL_CHANGE_KEYS } from './model-queries';
import { useModelTest } from './use-model-test';

interface ModelRowActionsProps {
  model: AdminModel;
  onEdit: (model: AdminModel) => void;
}

/** Edit, test the connection, delete (confirmed). */
export function ModelRowActions({ model, onEdit }: ModelRowActionsProps) {
  const { t } = useTranslation();
  const test = useModelTest(model);
  const remove = useAdminMutation({
    mutationFn: () => call('deleteModel', { params: { id: model.id } }),
    invalidates: MODEL_CHANGE_KEYS,
    successText: () => t('catalog:models.deletedDone', { name: model.display_name }),
    failureKey: 'catalog:models.deleteFailed',
  });
  return (
    <Space size={0} wrap={false}>
      <Button type="link" size="small" onClick={() => onEdit(model)} data-testid={`model-edit-${model.id}`}>
        {t('admin:actions.edit')}
      </Button>
      <Button
        type="link"
        size="small"
        loading={test.isPending}
        onClick={() => test.mutate()}
        data-testid={`model-test-${model.id}`}
      >
        {t('catalog:models.test.button')}
      </Button>
      <Popconfirm
        title={t('catalog:models.confirmDelete', { name: model.display_name })}
        description={t('catalog:models.confirmDeleteHint')}
        okText={t('admin:actions.delete')}
        okButtonProps={{ danger: true }}
        cancelText={t('common:cancel')}
        onConfirm={() => remove.mutateAsync().catch(() => undefined)}
      >
        <Button type="link" size="small" danger data-testid={`model-delete-${model.id}`}>
          {t('admin:actions.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
