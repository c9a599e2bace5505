import type { UsageOverview } from '@aiplatform/contracts';
import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '../../../components/charts/LazyChart';
import { formatNumber } from '../../../components/common/format';
import { useOverlaySize } from '../shared/use-overlay-size';
import { activityChartOption, consumptionChartOption } from './chart-options';

const HEIGHT = 280;

/** The range day by day: counts of people and messages, and what they consumed. */
export function DailyCharts({ overview }: { overview: UsageOverview }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { days, totals, from, to } = overview;
  const narrow = useOverlaySize().isMobile;

  const activity = useMemo(
    () =>
      activityChartOption(
        days,
        {
          messages: t('stats:series.messages'),
          activeUsers: t('stats:series.activeUsers'),
          conversations: t('stats:series.conversations'),
          description: t('stats:charts.activityDescription', {
            from,
            to,
            messages: formatNumber(totals.messages, language),
            users: formatNumber(totals.active_users, language),
          }),
        },
        { narrow },
      ),
    [days, totals, from, to, t, language, narrow],
  );
  const consumption = useMemo(
    () =>
      consumptionChartOption(
        days,
        {
          credits: t('stats:series.credits'),
          tokens: t('stats:series.tokens'),
          description: t('stats:charts.consumptionDescription', {
            from,
            to,
            credits: formatNumber(totals.credits, language),
            tokens: formatNumber(totals.tokens, language),
          }),
        },
        { narrow },
      ),
    [days, totals, from, to, t, language, narrow],
  );

  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={12}>
        <Card size="small" title={t('stats:charts.activity')}>
          <LazyChart
            option={activity}
            height={HEIGHT}
            ariaLabel={t('stats:charts.activity')}
            testId="stats-chart-activity"
          />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title={t('stats:charts.consumption')}>
          <LazyChart
            option={consumption}
            height={HEIGHT}
            ariaLabel={t('stats:charts.consumption')}
            testId="stats-chart-consumption"
          />
        </Card>
      </Col>
    </Row>
  );
}
