import { Card, Col, Row, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUserRefresh } from '../../api/use-current-user';
import { PageLoading } from '../../components/common/PageLoading';
import { PermissionTags } from '../../components/common/PermissionTags';
import { useAuthStore } from '../../stores/auth-store';
import { BasicInfoForm } from './BasicInfoForm';
import { ChangePasswordModal } from './ChangePasswordModal';
import { CreditHistoryTable } from './CreditHistoryTable';
import { ProfileInfoCard } from './ProfileInfoCard';
import './profile.css';

/** Info card, then basic info, credit history and permissions tabs. */
export default function ProfilePage() {
  const { t } = useTranslation();
  useCurrentUserRefresh();
  const user = useAuthStore((s) => s.user);
  const permissions = useAuthStore((s) => s.permissions);
  const [passwordOpen, setPasswordOpen] = useState(false);
  if (!user) return <PageLoading />;

  const tabs = [
    {
      key: 'basic',
      label: <span data-testid="profile-tab-basic">{t('profile:tabs.basic')}</span>,
      children: <BasicInfoForm key={user.id} user={user} />,
    },
    {
      key: 'credits',
      label: <span data-testid="profile-tab-credits">{t('profile:tabs.credits')}</span>,
      children: <CreditHistoryTable />,
    },
    {
      key: 'permissions',
      label: <span data-testid="profile-tab-permissions">{t('profile:tabs.permissions')}</span>,
      children: <PermissionTags permissions={permissions} />,
    },
  ];

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        <ProfileInfoCard user={user} onChangePassword={() => setPasswordOpen(true)} />
      </Col>
      <Col xs={24} lg={16}>
        <Card>
          <Tabs items={tabs} destroyOnHidden />
        </Card>
      </Col>
      <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Row>
  );
}
