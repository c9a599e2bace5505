import type { User } from '@aiplatform/contracts';
import { KeyOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../components/common/format';
import { ROLE_COLORS, ROLE_LABEL_KEYS } from '../../components/common/labels';
import { AvatarUpload } from './AvatarUpload';

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
      children: <Tag color={ROLE_COLORS[user.role]}>{t(ROLE_LABEL_KEYS[user.role])}</Tag>,
    },
    {
      key: 'group',
      label: t('profile:info.group'),
      children: user.group_name ? (
        <Tag color={user.group_color ?? undefined}>{user.group_name}</Tag>
      ) : (
        t('common:noGroup')
      ),
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
        </div>
      </div>
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}
