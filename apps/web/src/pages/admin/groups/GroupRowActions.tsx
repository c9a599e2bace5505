import type { Group } from '@aiplatform/contracts';
import { Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useAdminMutation } from '../shared/use-admin-mutation';

interface GroupRowActionsProps {
  group: Group;
  onOpenDetail: (group: Group) => void;
  onEdit: (group: Group) => void;
  onTransfer: (group: Group) => void;
}

/**
 * Details for all; pool transfers and edit/delete as the group's abilities (the server's
 * word) allow. A group that still has members is refused by the server with its reason.
 */
export function GroupRowActions({ group, onOpenDetail, onEdit, onTransfer }: GroupRowActionsProps) {
  const { t } = useTranslation();
  const { manage: canManage, 'pool.transfer': canTransfer } = group.abilities;
  const remove = useAdminMutation({
    mutationFn: () => call('deleteGroup', { params: { id: group.id } }),
    invalidates: [adminKeys.groups],
    successText: () => t('admin:groups.deletedDone', { name: group.name }),
    failureKey: 'admin:groups.deleteFailed',
  });
  return (
    <Space size={0}>
      <Button type="link" size="small" onClick={() => onOpenDetail(group)} data-testid={`group-detail-${group.id}`}>
        {t('admin:groups.details')}
      </Button>
      {canTransfer && (
        <Button type="link" size="small" onClick={() => onTransfer(group)} data-testid={`group-transfer-${group.id}`}>
          {t('admin:pool.transferShort')}
        </Button>
      )}
      {canManage && (
        <Button type="link" size="small" onClick={() => onEdit(group)} data-testid={`group-edit-${group.id}`}>
          {t('admin:actions.edit')}
        </Button>
      )}
      {canManage && (
        <Popconfirm
          title={t('admin:groups.confirmDelete', { name: group.name })}
          description={t('admin:groups.confirmDeleteHint')}
          okText={t('admin:actions.delete')}
          okButtonProps={{ danger: true }}
          cancelText={t('common:cancel')}
          onConfirm={() => remove.mutateAsync().catch(() => undefined)}
        >
          <Button type="link" size="small" danger data-testid={`group-delete-${group.id}`}>
            {t('admin:actions.delete')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
