import type { AdminUser, Group } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Divider } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatDateTime } from '../../../components/common/format';
import { groupDisplayName } from '../../../components/common/group-name';
import { StatusTag } from '../shared/AdminTags';
import { GroupLabel } from '../../../components/common/UserTags';
import { CapsEditor } from '../caps/CapsEditor';
import { DetailDrawer } from '../shared/DetailDrawer';
import { useAdminAccess } from '../shared/use-admin-access';
import { GroupMembersTable } from './GroupMembersTable';
import { GroupPoolCard } from './GroupPoolCard';
import { SiteConfigForm } from './SiteConfigForm';
import { UserLimitForm } from './UserLimitForm';
import { memberCountText } from './group-format';

interface GroupDetailDrawerProps {
  groupId: number | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  onTransfer: (group: Group, member?: AdminUser) => void;
}

/** The group's details; its abilities (the server's word) decide which forms and transfers show. */
function GroupDetail({ group, onTransfer }: { group: Group } & Pick<GroupDetailDrawerProps, 'onTransfer'>) {
  const { t, i18n } = useTranslation();
  const { manage: canManage, 'pool.transfer': canTransfer } = group.abilities;
  const canCaps = useAdminAccess().can('caps.manage');
  return (
    <>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        style={{ marginBottom: 16 }}
        items={[
          {
            key: 'name',
            label: t('admin:groups.fields.name'),
            children: <GroupLabel name={group.name} color={group.color} />,
          },
          { key: 'status', label: t('admin:groups.fields.status'), children: <StatusTag status={group.status} /> },
          { key: 'members', label: t('admin:groups.columns.members'), children: memberCountText(t, group) },
          {
            key: 'created',
            label: t('admin:fields.createdAt'),
            children: formatDateTime(group.created_at, i18n.language),
          },
          {
            key: 'description',
            label: t('admin:groups.fields.description'),
            span: { xs: 1, sm: 2 },
            children: group.description || t('admin:fields.notSet'),
          },
        ]}
      />
      <GroupPoolCard
        group={group}
        canResize={canManage}
        {...(canTransfer ? { onTransfer: () => onTransfer(group) } : {})}
      />
      <Divider titlePlacement="start">{t('admin:groups.members')}</Divider>
      <GroupMembersTable
        group={group}
        {...(canTransfer ? { onTransfer: (member: AdminUser) => onTransfer(group, member) } : {})}
      />
      {canManage && (
        <>
          <Divider titlePlacement="start">{t('admin:groups.limitTitle')}</Divider>
          <UserLimitForm key={String(group.user_limit)} group={group} />
          <Divider titlePlacement="start">{t('admin:site.title')}</Divider>
          <SiteConfigForm group={group} />
        </>
      )}
      {canCaps && (
        <>
          <Divider titlePlacement="start">{t('admin:caps.title')}</Divider>
          <CapsEditor subject={{ type: 'group', id: group.id }} />
        </>
      )}
    </>
  );
}

/** One group: its pool, members, member limit, site configuration and usage caps. */
export function GroupDetailDrawer({ groupId, open, onClose, afterClose, ...rest }: GroupDetailDrawerProps) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: adminKeys.group(groupId ?? 0),
    queryFn: () => call('getGroup', { params: { id: groupId ?? 0 } }),
    enabled: groupId !== null,
  });
  return (
    <DetailDrawer
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      detail={detail}
      titleOf={(g) => groupDisplayName(g.name, t, g.id)}
      testId="group-detail-drawer"
    >
      {(g) => <GroupDetail group={g} {...rest} />}
    </DetailDrawer>
  );
}
