import type { AdminUserDetail } from '@aiplatform/contracts';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../components/common/format';
import { StatusTag } from '../shared/AdminTags';
import { GroupLabel, RoleTag } from '../../../components/common/UserTags';

/** The account at a glance: identity, role, group, sign-in and usage (remarks are for administrators). */
export function UserProfileSection({ user }: { user: AdminUserDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const notSet = t('admin:fields.notSet');
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 2 }}
      data-testid="user-profile"
      items={[
        { key: 'id', label: t('admin:fields.id'), children: user.id },
        { key: 'username', label: t('admin:fields.username'), children: user.username },
        { key: 'email', label: t('admin:fields.email'), children: user.email },
        { key: 'phone', label: t('admin:fields.phone'), children: user.phone ?? notSet },
        { key: 'role', label: t('admin:fields.role'), children: <RoleTag role={user.role} /> },
        { key: 'status', label: t('admin:fields.status'), children: <StatusTag status={user.status} /> },
        {
          key: 'group',
          label: t('admin:fields.group'),
          children: <GroupLabel name={user.group_name} color={user.group_color} />,
        },
        { key: 'created', label: t('admin:fields.createdAt'), children: formatDateTime(user.created_at, lang) },
        {
          key: 'lastLogin',
          label: t('admin:fields.lastLogin'),
          children: user.last_login_at ? formatDateTime(user.last_login_at, lang) : t('admin:users.neverSignedIn'),
        },
        {
          key: 'tokens',
          label: t('admin:fields.tokens'),
          children: t('admin:fields.tokensValue', {
            used: formatNumber(user.token_used, lang),
            quota: formatNumber(user.token_quota, lang),
          }),
        },
        {
          key: 'remark',
          label: t('admin:fields.remark'),
          span: { xs: 1, sm: 2 },
          children: user.remark || notSet,
        },
      ]}
    />
  );
}
