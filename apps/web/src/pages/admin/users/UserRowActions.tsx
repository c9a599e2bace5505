import type { AdminUser } from '@aiplatform/contracts';
import { Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserStatusActions } from './use-user-status-actions';

interface UserRowActionsProps {
  user: AdminUser;
  onOpenDetail: (user: AdminUser) => void;
  onAdjustCredits: (user: AdminUser) => void;
}

/**
 * The actions of one row: details, credits, enable/disable and retire (each confirmed),
 * each offered only when the row's abilities, the server's word, allow it.
 */
export function UserRowActions({ user, onOpenDetail, onAdjustCredits }: UserRowActionsProps) {
  const { t } = useTranslation();
  const { setStatus, retire } = useUserStatusActions();
  const { abilities } = user;
  const active = user.status === 'active';
  return (
    <Space size={0} wrap={false}>
      <Button type="link" size="small" onClick={() => onOpenDetail(user)} data-testid={`user-detail-${user.id}`}>
        {t('admin:users.details')}
      </Button>
      {abilities['credits.adjust'] && (
        <Button type="link" size="small" onClick={() => onAdjustCredits(user)} data-testid={`user-credits-${user.id}`}>
          {t('admin:users.credits')}
        </Button>
      )}
      {abilities.status && (
        <Popconfirm
          title={
            active
              ? t('admin:users.confirmDisable', { name: user.username })
              : t('admin:users.confirmEnable', { name: user.username })
          }
          description={active ? t('admin:users.confirmDisableHint') : undefined}
          okText={t('admin:actions.confirm')}
          cancelText={t('common:cancel')}
          onConfirm={() =>
            setStatus.mutateAsync({ user, status: active ? 'inactive' : 'active' }).catch(() => undefined)
          }
        >
          <Button type="link" size="small" danger={active} data-testid={`user-toggle-status-${user.id}`}>
            {active ? t('admin:users.disable') : t('admin:users.enable')}
          </Button>
        </Popconfirm>
      )}
      {abilities.delete && (
        <Popconfirm
          title={t('admin:users.confirmRetire', { name: user.username })}
          description={t('admin:users.confirmRetireHint')}
          okText={t('admin:users.retire')}
          okButtonProps={{ danger: true }}
          cancelText={t('common:cancel')}
          onConfirm={() => retire.mutateAsync(user).catch(() => undefined)}
        >
          <Button type="link" size="small" danger data-testid={`user-retire-${user.id}`}>
            {t('admin:users.retire')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
