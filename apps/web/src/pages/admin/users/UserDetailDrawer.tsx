import type { AdminUser, AdminUserDetail } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Divider, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { CapsEditor } from '../caps/CapsEditor';
import { DetailDrawer } from '../shared/DetailDrawer';
import { useAdminAccess } from '../shared/use-admin-access';
import { ResetPasswordForm } from './ResetPasswordForm';
import { UserCreditsTab } from './UserCreditsTab';
import { UserEditForm } from './UserEditForm';
import { UserProfileSection } from './UserProfileSection';
import { UserSessionsTable } from './UserSessionsTable';

interface UserDetailDrawerProps {
  userId: number | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  groupOptions: { value: number; label: string }[];
  onAdjustCredits: (user: AdminUser) => void;
}

/** The tabs and forms the user's abilities (the server's word) allow the viewer. */
export function UserDetailTabs({
  user,
  groupOptions,
  onAdjustCredits,
}: { user: AdminUserDetail } & Pick<UserDetailDrawerProps, 'groupOptions' | 'onAdjustCredits'>) {
  const { t } = useTranslation();
  const { abilities } = user;
  // The server answers 403 for a user beyond the viewer's reach; the rows shown are within it.
  const canCaps = useAdminAccess().can('caps.manage');
  const basic = (
    <>
      <UserProfileSection user={user} />
      <Divider titlePlacement="start">{t('admin:sessions.title')}</Divider>
      <UserSessionsTable sessions={user.sessions} />
      {abilities.update && (
        <>
          <Divider titlePlacement="start">{t('admin:edit.title')}</Divider>
          <UserEditForm
            key={user.id}
            user={user}
            canSetGroup={abilities.move}
            canSetRole={abilities.role}
            canSetPermissions={abilities.permissions}
            groupOptions={groupOptions}
          />
        </>
      )}
    </>
  );
  const tabs = [
    { key: 'basic', label: <span data-testid="user-tab-basic">{t('admin:detail.tabBasic')}</span>, children: basic },
  ];
  if (abilities['credits.read'])
    tabs.push({
      key: 'credits',
      label: <span data-testid="user-tab-credits">{t('admin:detail.tabCredits')}</span>,
      children: <UserCreditsTab user={user} {...(abilities['credits.adjust'] ? { onAdjustCredits } : {})} />,
    });
  if (canCaps)
    tabs.push({
      key: 'caps',
      label: <span data-testid="user-tab-caps">{t('admin:caps.tab')}</span>,
      children: <CapsEditor subject={{ type: 'user', id: user.id }} />,
    });
  if (abilities.password)
    tabs.push({
      key: 'password',
      label: <span data-testid="user-tab-password">{t('admin:detail.tabPassword')}</span>,
      children: <ResetPasswordForm user={user} />,
    });
  return <Tabs items={tabs} destroyOnHidden />;
}

/** Everything about one user: profile and edit form, credits and ledger, usage caps, password reset. */
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
      {(u) => <UserDetailTabs user={u} {...rest} />}
    </DetailDrawer>
  );
}
