import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { exportStatsCsv } from '../../../api/admin-files';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { ExportCsvButton } from '../shared/ExportCsvButton';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useAdminAccess } from '../shared/use-admin-access';
import { StatsFilters } from './StatsFilters';
import { StatsOverview } from './StatsOverview';
import { StatsSkeleton } from './StatsSkeleton';
import { statsApiQuery } from './stats-query';
import { useStatsGroupOptions } from './use-stats-group-options';
import { useStatsView, useUsageOverview } from './use-stats-view';
import './stats.css';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

function StatsWorkspace() {
  const { t } = useTranslation();
  const access = useAdminAccess();
  // A group administrator's numbers are always their own group's (the server forces it).
  const mayPickGroup = access.canEverywhere('stats.read');
  const [query, setQuery] = useStatsView(mayPickGroup);
  const overview = useUsageOverview(query);
  const data = overview.data;
  const groupOptions = useStatsGroupOptions(mayPickGroup && access.can('group.read'), data);
  const ownGroup = !mayPickGroup ? data?.groups[0] : undefined;

  let body;
  if (overview.isError && !data)
    body = <QueryErrorResult error={overview.error} onRetry={() => void overview.refetch()} testId="stats-error" />;
  else if (!data) body = <StatsSkeleton />;
  else
    body = (
      <div
        className={overview.isPlaceholderData ? 'stats-body is-stale' : 'stats-body'}
        aria-busy={overview.isPlaceholderData}
        data-testid="stats-body"
      >
        <StatsOverview overview={data} showGroups={mayPickGroup && query.groupId === undefined} />
      </div>
    );

  return (
    <>
      <AdminPageHeader
        title={t('stats:title')}
        actions={<ExportCsvButton download={() => exportStatsCsv(statsApiQuery(query))} />}
      />
      <Flex vertical gap={12}>
        <Flex wrap gap={12} align="center" justify="space-between">
          <StatsFilters value={query} onChange={setQuery} groupOptions={mayPickGroup ? groupOptions : null} />
          {ownGroup && (
            <Tag data-testid="stats-own-group">{t('stats:group.own', { name: ownGroup.group_name ?? '' })}</Tag>
          )}
        </Flex>
        {data && (
          <Typography.Text type="secondary" data-testid="stats-period">
            {t('stats:period', { from: data.from, to: data.to, zone: data.time_zone })}
          </Typography.Text>
        )}
        {body}
      </Flex>
    </>
  );
}

/** Usage statistics: the whole platform for a super administrator, their own group for a group administrator. */
export default function AdminStatsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.stats'));
  return (
    <AccessGuard page="stats">
      <AdminTheme>
        <StatsWorkspace />
      </AdminTheme>
    </AccessGuard>
  );
}
