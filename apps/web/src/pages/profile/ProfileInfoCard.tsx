import type { User } from '@aiplatform/contracts';
import { KeyOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../components/common/format';
import { GroupLabel, RoleTag } from '../../components/common/UserTags';
import { AvatarUpload } from './AvatarUpload';
import { DownloadMyDataButton } from './DownloadMyDataButton';

/** Who the user is and where their credits stand. */
export function ProfileInfoCard({ user, onChangePassword }: { user: User; onChangePassword: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const stats = user.credits_stats;
  const items = [
    { key: 'id', label: t('profile:info.id'), children: user.id },
    { key: 'email', label: t('profile:info.email'), children: user.email },
    { key: 'phone', label: t('profile:info.phone'), children: user.phone || t('profile:info.notSet') },
    {
      key: 'role',
      label: t('profile:info.role'),
      children: <RoleTag role={user.role} />,
    },
    {
      key: 'group',
      label: t('profile:info.group'),
      // A dot in the group's colour beside the name: white text on an arbitrary colour may be unreadable.
      children: <GroupLabel name={user.group_name} color={user.group_color} />,
    },
    { key: 'created', label: t('profile:info.registeredAt'), children: formatDate(user.created_at, lang) },
    { key: 'remaining', label: t('profile:info.creditsRemaining'), children: formatNumber(stats.remaining, lang) },
    { key: 'used', label: t('profile:info.creditsUsed'), children: formatNumber(stats.used, lang) },
    { key: 'rate', label: t('profile:info.usageRate'), children: `${formatNumber(stats.usageRate, lang)}%` },
  ];

  return (
    <Card data-testid="profile-info-card">
      <div className="profile-header">
        <AvatarUpload />
        <div className="profile-identity">
          <div className="profile-name">{user.username}</div>
          <Button icon={<KeyOutlined />} onClick={onChangePassword} data-testid="change-password-button">
            {t('profile:password.change')}
          </Button>
          <DownloadMyDataButton />
        </div>
      </div>
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}
