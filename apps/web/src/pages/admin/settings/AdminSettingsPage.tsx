import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { useAbilities } from '../../../stores/abilities';
import { ModelsTab } from '../models/ModelsTab';
import { ModulesTab } from '../modules/ModulesTab';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useOverlaySize } from '../shared/use-overlay-size';
import { usePointerOnlyTabsMore } from '../shared/use-pointer-only-tabs-more';
import { BasicTab } from './BasicTab';
import { CreditsTab } from './CreditsTab';
import { DocumentsTab } from './DocumentsTab';
import { HomepageTab } from './HomepageTab';
import { SecurityTab } from './SecurityTab';
import { StatsTab } from './StatsTab';
import { RetentionTab } from './RetentionTab';
import { StorageTab } from './StorageTab';
import { UnsavedEditsGuard } from './unsaved-edits';
import './settings.css';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

const TABS = [
  'basic',
  'models',
  'modules',
  'credits',
  'security',
  'storage',
  'documents',
  'stats',
  'retention',
  'homepage',
] as const;
type TabKey = (typeof TABS)[number];

function SettingsWorkspace() {
  const { t } = useTranslation();
  const { isMobile } = useOverlaySize();
  const tabsArea = usePointerOnlyTabsMore();
  const [params, setParams] = useSearchParams();
  // Which parts open and which may be changed, as the server said with the session.
  const parts = useAbilities().settings;
  const shown = TABS.filter((tab) => (tab === 'models' || tab === 'modules' ? parts[tab] !== 'none' : true));
  const requested = params.get('tab');
  const active: TabKey = (shown as readonly string[]).includes(requested ?? '') ? (requested as TabKey) : 'basic';
  const query = useQuery({ queryKey: adminKeys.settings, queryFn: () => call('getSettings') });

  let body;
  if (query.isLoading) body = <Skeleton active paragraph={{ rows: 10 }} data-testid="settings-loading" />;
  else if (query.isError || !query.data)
    body = <QueryErrorResult error={query.error} onRetry={() => void query.refetch()} testId="settings-error" />;
  else {
    const settings = query.data;
    const readOnly = settings._readOnly;
    const tabLabel = (key: TabKey, text: string) => <span data-testid={`settings-tab-${key}`}>{text}</span>;
    body = (
      <>
        {readOnly && (
          <Alert
            type="info"
            showIcon
            title={t('settings:readOnly')}
            style={{ marginBottom: 16 }}
            data-testid="settings-read-only"
          />
        )}
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          // The list of tabs that do not fit opens on a click, not on hover: it stays open while read.
          more={{ trigger: ['click'] }}
          classNames={{ popup: { root: 'settings-tabs-more' } }}
          items={[
            {
              key: 'basic',
              label: tabLabel('basic', t('settings:tabs.basic')),
              children: <BasicTab settings={settings} readOnly={readOnly} />,
            },
            {
              key: 'models',
              label: tabLabel('models', t('settings:tabs.models')),
              children: <ModelsTab readOnly={parts.models !== 'manage'} />,
            },
            {
              key: 'modules',
              label: tabLabel('modules', t('settings:tabs.modules')),
              children: <ModulesTab readOnly={parts.modules !== 'manage'} />,
            },
            {
              key: 'credits',
              label: tabLabel('credits', t('settings:tabs.credits')),
              children: <CreditsTab settings={settings} readOnly={readOnly} />,
            },
            {
              key: 'security',
              label: tabLabel('security', t('settings:tabs.security')),
              children: <SecurityTab settings={settings} readOnly={readOnly} />,
            },
            {
              key: 'storage',
              label: tabLabel('storage', t('settings:tabs.storage')),
              children: <StorageTab settings={settings} readOnly={readOnly} />,
            },
            {
              key: 'documents',
              label: tabLabel('documents', t('settings:tabs.documents')),
              children: <DocumentsTab settings={settings} readOnly={readOnly} />,
            },
            {
              key: 'stats',
              label: tabLabel('stats', t('settings:tabs.stats')),
              children: <StatsTab settings={settings} readOnly={readOnly} />,
            },
            {
              key: 'retention',
              label: tabLabel('retention', t('settings:tabs.retention')),
              children: <RetentionTab settings={settings} readOnly={readOnly} />,
            },
            {
              key: 'homepage',
              label: tabLabel('homepage', t('settings:tabs.homepage')),
              children: <HomepageTab readOnly={readOnly} />,
            },
          ].filter((tab) => shown.includes(tab.key as TabKey))}
          data-testid="settings-tabs"
        />
      </>
    );
  }

  return (
    <>
      <AdminPageHeader title={t('settings:title')} />
      <Card styles={{ body: { padding: isMobile ? 12 : undefined } }}>
        <UnsavedEditsGuard>
          <div ref={tabsArea}>{body}</div>
        </UnsavedEditsGuard>
      </Card>
    </>
  );
}

/**
 * System settings. Super administrators change them; group administrators see the same
 * screens read-only (the server says so with `_readOnly`, and for the models and modules
 * with the session's abilities).
 */
export default function AdminSettingsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.settings'));
  return (
    <AccessGuard page="settings">
      <AdminTheme>
        <SettingsWorkspace />
      </AdminTheme>
    </AccessGuard>
  );
}
