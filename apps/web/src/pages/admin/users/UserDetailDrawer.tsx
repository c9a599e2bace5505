import type { AdminUser, AdminUserDetail } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Divider, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { DetailDrawer } from '../shared/DetailDrawer';
import type { AdminAccess } from '../shared/use-admin-access';
import { ResetPasswordForm } from './ResetPasswordForm';
import { UserCreditsTab } from './UserCreditsTab';
import { UserEditForm } from './UserEditForm';
import { UserProfileSection } from './UserProfileSection';
import { UserSessionsTable } from './UserSessionsTable';
import { isSelf, mayChangeUser } from './user-rules';

interface UserDetailDrawerProps {
  userId: number | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  access: AdminAccess;
  groupOptions: { value: number; label: string }[];
  onAdjustCredits: (user: AdminUser) => void;
}

function DetailTabs({
  user,
  access,
  groupOptions,
  onAdjustCredits,
}: { user: AdminUserDetail } & Pick<UserDetailDrawerProps, 'access' | 'groupOptions' | 'onAdjustCredits'>) {
  const { t } = useTranslation();
  const changeable = mayChangeUser(access, user);
  const self = isSelf(access, user);
  const basic = (
    <>
      <UserProfileSection user={user} />
      <Divider titlePlacement="start">{t('admin:sessions.title')}</Divider>
      <UserSessionsTable sessions={user.sessions} />
      {changeable && (
        <>
          <Divider titlePlacement="start">{t('admin:edit.title')}</Divider>
          <UserEditForm
            key={user.id}
            user={user}
            canSetGroup={access.canEverywhere('user.move')}
            canSetRole={access.canEverywhere('user.role') && !self}
            canSetPermissions={access.canEverywhere('user.permissions')}
            groupOptions={groupOptions}
          />
        </>
      )}
    </>
  );
  const tabs = [
    { key: 'basic', label: <span data-testid="user-tab-basic">{t('admin:detail.tabBasic')}</span>, children: basic },
  ];
  if (access.can('credits.read'))
    tabs.push({
      key: 'credits',
      label: <span data-testid="user-tab-credits">{t('admin:detail.tabCredits')}</span>,
      children: <UserCreditsTab user={user} {...(access.canEverywhere('credits.adjust') ? { onAdjustCredits } : {})} />,
    });
  if (changeable && access.can('user.password'))
    tabs.push({
      key: 'password',
      label: <span data-testid="user-tab-password">{t('admin:detail.tabPassword')}</span>,
      children: <ResetPasswordForm user={user} />,
    });
  return <Tabs items={tabs} destroyOnHidden />;
}

/** Everything about one user: profile and edit form, credits and ledger, password reset. */
export function UserDetailDrawer({ userId, open, onClose, afterClose, ...rest }: UserDetailDrawerProps) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: adminKeys.user(userId ?? 0),
    queryFn: () => call('getUser', { params: { id: userId ?? 0 } }),
    enabled: userId !== null,
  });
  return (
    <DetailDrawer
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      detail={detail}
      titleOf={(u) => t('admin:detail.title', { name: u.username })}
      testId="user-detail-drawer"
    >
      {(u) => <DetailTabs user={u} {...rest} />}
    </DetailDrawer>
  );
}
