import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Card, Col, Flex, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentUserRefresh } from '../../api/use-current-user';
import { PageLoading } from '../../components/common/PageLoading';
import { PermissionTags } from '../../components/common/PermissionTags';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { useAuthStore } from '../../stores/auth-store';
import { AdminTheme } from '../admin/shared/AdminTheme';
import { CapsCard } from './CapsCard';
import { CreditsCard } from './CreditsCard';
import { DashboardAnnouncements } from './DashboardAnnouncements';
import { QuickStartCard } from './QuickStartCard';
import { RealtimeCard } from './RealtimeCard';
import { UsageCard } from './UsageCard';
import './dashboard.css';

/**
 * The signed-in user's start page: the announcements (edited in place by whoever may
 * change them), their credits, the platform's live numbers, their own use over the last
 * month, shortcuts and their permissions. Each card loads and fails on its own.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.dashboard'));
  useCurrentUserRefresh();
  const user = useAuthStore((s) => s.user);
  const permissions = useAuthStore((s) => s.permissions);
  if (!user) return <PageLoading />;

  // The contrast-safe colours of the admin screens: antd's default greys and blue are too light for small text.
  return (
    <AdminTheme>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <div>
          {/* The page's one h1, sized like the other card titles' section heading. */}
          <Typography.Title level={1} className="page-heading" data-testid="dashboard-welcome">
            {t('dashboard:welcome', { name: user.username })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('dashboard:subtitle')}</Typography.Text>
        </div>
        <DashboardAnnouncements user={user} />
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <CreditsCard />
          </Col>
          <Col xs={24} lg={12}>
            <RealtimeCard />
          </Col>
          <Col xs={24} xl={16}>
            <UsageCard />
          </Col>
          {/* Shortcuts and permissions are short: stacked beside the usage chart they fill its height. */}
          <Col xs={24} xl={8}>
            <Flex vertical gap={16}>
              <CapsCard />
              <QuickStartCard />
              <Card
                title={
                  <span>
                    <SafetyCertificateOutlined /> {t('dashboard:permissions')}
                  </span>
                }
              >
                <PermissionTags permissions={permissions} />
              </Card>
            </Flex>
          </Col>
        </Row>
      </Space>
    </AdminTheme>
  );
}
