import { useTranslation } from 'react-i18next';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { PreparingResult } from '../../../components/common/PreparingResult';

/** User management: for `user.manage` or `user.manage.group` holders (SPEC §6). */
export default function AdminUsersPage() {
  const { t } = useTranslation();
  return (
    <AccessGuard anyPermission={['user.manage', 'user.manage.group']}>
      <PreparingResult title={t('pages:adminUsers.title')} />
    </AccessGuard>
  );
}
