import type { UsageOverview } from '@aiplatform/contracts';
import { Col, Row } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { groupDisplayName } from '../../../components/common/group-name';
import { BreakdownChart } from './BreakdownChart';
import { type BreakdownMetric, groupBars, modelBars } from './chart-options';

interface BreakdownChartsProps {
  overview: UsageOverview;
  /** Only a view over several groups compares groups; one group's bar alone says nothing. */
  showGroups: boolean;
}

/** Usage by model and, over several groups, by group. */
export function BreakdownCharts({ overview, showGroups }: BreakdownChartsProps) {
  const { t } = useTranslation();
  const { models, groups } = overview;
  const byModel = useCallback((metric: BreakdownMetric) => modelBars(models, metric), [models]);
  const byGroup = useCallback(
    (metric: BreakdownMetric) =>
      groupBars(
        groups.map((g) => ({ ...g, group_name: groupDisplayName(g.group_name, t, g.group_id) })),
        metric,
        t('common:noGroup'),
      ),
    [groups, t],
  );
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={showGroups ? 12 : 24}>
        <BreakdownChart
          title={t('stats:charts.byModel')}
          bars={byModel}
          descriptionKey="stats:charts.byModelDescription"
          testId="stats-chart-models"
        />
      </Col>
      {showGroups && (
        <Col xs={24} xl={12}>
          <BreakdownChart
            title={t('stats:charts.byGroup')}
            bars={byGroup}
            descriptionKey="stats:charts.byGroupDescription"
            testId="stats-chart-groups"
          />
        </Col>
      )}
    </Row>
  );
}
