import { Card, Col, Row, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUserRefresh } from '../../api/use-current-user';
import { PageLoading } from '../../components/common/PageLoading';
import { PermissionTags } from '../../components/common/PermissionTags';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { useAuthStore } from '../../stores/auth-store';
import { useAbilities } from '../../stores/abilities';
import { usePointerOnlyTabsMore } from '../admin/shared/use-pointer-only-tabs-more';
import { ApiKeysTab } from './ApiKeysTab';
import { BasicInfoForm } from './BasicInfoForm';
import { ChangePasswordModal } from './ChangePasswordModal';
import { CreditHistoryTable } from './CreditHistoryTable';
import { PersonalCapsForm } from './PersonalCapsForm';
import { ProfileInfoCard } from './ProfileInfoCard';
import { SharedLinksTable } from './SharedLinksTable';
import './profile.css';

const TAB_KEYS = ['basic', 'credits', 'caps', 'shares', 'api-keys', 'permissions'] as const;
type TabKey = (typeof TAB_KEYS)[number];

const toTabKey = (value: string | null): TabKey => TAB_KEYS.find((key) => key === value) ?? 'basic';

/**
 * `?tab=credits` opens a tab directly (the dashboard links to the credit history). Clicks
 * only switch the tab: the address stays as it was opened.
 */
function useTabParam(): [TabKey, (key: string) => void] {
  const [params] = useSearchParams();
  const wanted = toTabKey(params.get('tab'));
  const [state, setState] = useState({ wanted, active: wanted });
  // Another link to the profile while it is open (a different ?tab) switches to that tab.
  if (state.wanted !== wanted) setState({ wanted, active: wanted });
  return [state.wanted === wanted ? state.active : wanted, (key) => setState({ wanted, active: toTabKey(key) })];
}

/** Info card, then basic info, credit history, usage caps, shared links, API keys (when granted) and permissions tabs. */
export default function ProfilePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:userMenu.profile'));
  const [activeTab, selectTab] = useTabParam();
  useCurrentUserRefresh();
  const user = useAuthStore((s) => s.user);
  const permissions = useAuthStore((s) => s.permissions);
  // Only people granted personal API keys (per user or through their group) see the tab.
  const canUseApiKeys = useAbilities().actions['api_key.use'] !== 'none';
  const [passwordOpen, setPasswordOpen] = useState(false);
  // On a phone the tabs do not all fit: antd's "more" button must not sit among the tabs.
  const tabsArea = usePointerOnlyTabsMore();
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
      key: 'caps',
      label: <span data-testid="profile-tab-caps">{t('profile:tabs.caps')}</span>,
      children: <PersonalCapsForm />,
    },
    {
      key: 'shares',
      label: <span data-testid="profile-tab-shares">{t('profile:tabs.shares')}</span>,
      children: <SharedLinksTable />,
    },
    ...(canUseApiKeys
      ? [
          {
            key: 'api-keys',
            label: <span data-testid="profile-tab-api-keys">{t('profile:tabs.apiKeys')}</span>,
            children: <ApiKeysTab />,
          },
        ]
      : []),
    {
      key: 'permissions',
      label: <span data-testid="profile-tab-permissions">{t('profile:tabs.permissions')}</span>,
      children: <PermissionTags permissions={permissions} />,
    },
  ];

  return (
    <Row gutter={[16, 16]}>
      {/* The cards carry their own titles; the page's heading is for screen readers and outlines. */}
      <h1 className="visually-hidden">{t('layout:userMenu.profile')}</h1>
      <Col xs={24} lg={8}>
        <ProfileInfoCard user={user} onChangePassword={() => setPasswordOpen(true)} />
      </Col>
      <Col xs={24} lg={16}>
        <Card ref={tabsArea}>
          <Tabs
            items={tabs}
            activeKey={tabs.some((tab) => tab.key === activeTab) ? activeTab : 'basic'}
            onChange={selectTab}
            destroyOnHidden
          />
        </Card>
      </Col>
      <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Row>
  );
}
