import type { User } from '@aiplatform/contracts';
import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveGroupAnnouncement, saveSystemAnnouncement } from '../../api/announcements';
import { useGroupAnnouncement, useMyGroupAnnouncement, useSystemAnnouncement } from '../../api/use-announcements';
import { groupDisplayName } from '../../components/common/group-name';
import { useAdminAccess } from '../admin/shared/use-admin-access';
import { AnnouncementPanel } from './AnnouncementPanel';
import './announcements.css';

/**
 * The system and the group announcement. A super administrator edits the system one
 * here; a group administrator edits their own group's (anyone else only reads them).
 */
export function DashboardAnnouncements({ user }: { user: User }) {
  const { t } = useTranslation();
  const access = useAdminAccess();
  const editsSystem = access.canEverywhere('announcement.manage');
  const groupId = user.group_id;
  const editsGroup = access.scope('group.announcement') === 'group' && groupId !== null;
  const system = useSystemAnnouncement();
  const memberView = useMyGroupAnnouncement();
  const editorView = useGroupAnnouncement(groupId, editsGroup);

  return (
    <Flex vertical gap={16} data-testid="dashboard-announcements">
      <AnnouncementPanel kind="system" query={system} {...(editsSystem ? { save: saveSystemAnnouncement } : {})} />
      <AnnouncementPanel
        kind="group"
        query={editsGroup ? editorView : memberView}
        subtitle={groupDisplayName(user.group_name, t, user.group_id)}
        {...(editsGroup && groupId !== null ? { save: (body) => saveGroupAnnouncement(groupId, body) } : {})}
      />
    </Flex>
  );
}
