import type { UsageOverview } from '@aiplatform/contracts';
import { Card, Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { BreakdownCharts } from './BreakdownCharts';
import { DailyCharts } from './DailyCharts';
import { StatsTotals } from './StatsTotals';
import { TopUsersTable } from './TopUsersTable';
import { ApiUsageCard } from './ApiUsageCard';
import { isEmptyOverview } from './chart-options';

interface StatsOverviewProps {
  overview: UsageOverview;
  showGroups: boolean;
}

/** The numbers of one view: totals, then the charts and top users, or a note that the range is empty. */
export function StatsOverview({ overview, showGroups }: StatsOverviewProps) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12}>
      <StatsTotals totals={overview.totals} />
      {isEmptyOverview(overview) ? (
        <Card>
          <Empty
            description={
              <>
                <div>{t('stats:empty')}</div>
                <div>{t('stats:emptyHint')}</div>
              </>
            }
            data-testid="stats-empty"
          />
        </Card>
      ) : (
        <>
          <DailyCharts overview={overview} />
          <BreakdownCharts overview={overview} showGroups={showGroups} />
          <TopUsersTable users={overview.top_users} />
          <ApiUsageCard overview={overview} />
        </>
      )}
    </Flex>
  );
}
