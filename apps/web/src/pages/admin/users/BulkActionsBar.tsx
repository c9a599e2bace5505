import { Button, Flex, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoveUsersModal } from './MoveUsersModal';
import { useBulkUsers } from './use-bulk-users';

interface BulkActionsBarProps {
  selectedIds: number[];
  canChangeStatus: boolean;
  /** Moving between groups is for administrators of every group only. */
  canMove: boolean;
  groupOptions: { value: number; label: string }[];
  onClearSelection: () => void;
}

/** Enable, disable or move the selected users, each after a confirmation. */
export function BulkActionsBar({
  selectedIds,
  canChangeStatus,
  canMove,
  groupOptions,
  onClearSelection,
}: BulkActionsBarProps) {
  const { t } = useTranslation();
  const [moveOpen, setMoveOpen] = useState(false);
  const bulk = useBulkUsers(() => {
    setMoveOpen(false);
    onClearSelection();
  });
  const count = selectedIds.length;
  if (count === 0) return null;
  const run = (action: 'enable' | 'disable') => bulk.mutateAsync({ ids: selectedIds, action }).catch(() => undefined);

  return (
    <Flex wrap gap={8} align="center" style={{ marginBottom: 12 }} data-testid="bulk-actions">
      <Typography.Text strong data-testid="bulk-selected-count">
        {t('admin:bulk.selected', { count })}
      </Typography.Text>
      {canChangeStatus && (
        <>
          <Popconfirm
            title={t('admin:bulk.confirmEnable', { count })}
            okText={t('admin:actions.confirm')}
            cancelText={t('common:cancel')}
            onConfirm={() => run('enable')}
          >
            <Button size="small" data-testid="bulk-enable">
              {t('admin:bulk.enable')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('admin:bulk.confirmDisable', { count })}
            description={t('admin:users.confirmDisableHint')}
            okText={t('admin:actions.confirm')}
            okButtonProps={{ danger: true }}
            cancelText={t('common:cancel')}
            onConfirm={() => run('disable')}
          >
            <Button size="small" danger data-testid="bulk-disable">
              {t('admin:bulk.disable')}
            </Button>
          </Popconfirm>
        </>
      )}
      {canMove && (
        <Button size="small" onClick={() => setMoveOpen(true)} data-testid="bulk-move">
          {t('admin:bulk.move')}
        </Button>
      )}
      <Button size="small" type="text" onClick={onClearSelection} data-testid="bulk-clear">
        {t('admin:bulk.clear')}
      </Button>
      <MoveUsersModal
        open={moveOpen}
        count={count}
        groupOptions={groupOptions}
        submitting={bulk.isPending}
        onSubmit={(groupId) => bulk.mutate({ ids: selectedIds, action: 'move', group_id: groupId })}
        onClose={() => setMoveOpen(false)}
      />
    </Flex>
  );
}
