import { Card, Segmented } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyChart } from '../../../components/charts/LazyChart';
import { formatNumber } from '../../../components/common/format';
import { useOverlaySize } from '../shared/use-overlay-size';
import {
  BREAKDOWN_METRICS,
  type Bar,
  type BreakdownMetric,
  barChartHeight,
  barChartOption,
  barSummary,
} from './chart-options';

const METRIC_KEYS: Record<BreakdownMetric, string> = {
  credits: 'stats:series.credits',
  messages: 'stats:series.messages',
  tokens: 'stats:series.tokens',
};

interface BreakdownChartProps {
  title: string;
  /** The bars for a measure; must keep its identity between renders (the chart redraws when it changes). */
  bars: (metric: BreakdownMetric) => Bar[];
  /** Translation key of the screen-reader sentence, given `metric` and `items`. */
  descriptionKey: string;
  testId: string;
}

/** A ranking as horizontal bars, by credits (the default: what is charged back), messages or tokens. */
export function BreakdownChart({ title, bars, descriptionKey, testId }: BreakdownChartProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const narrow = useOverlaySize().isMobile;
  const [metric, setMetric] = useState<BreakdownMetric>('credits');
  const shown = useMemo(() => bars(metric), [bars, metric]);
  const option = useMemo(() => {
    const metricLabel = t(METRIC_KEYS[metric]);
    const items = barSummary(shown, (value) => formatNumber(value, language));
    return barChartOption(shown, metricLabel, t(descriptionKey, { metric: metricLabel, items }), { narrow });
  }, [shown, metric, descriptionKey, t, language, narrow]);

  return (
    <Card size="small" title={title} style={{ height: '100%' }}>
      <Segmented<BreakdownMetric>
        size="small"
        value={metric}
        options={BREAKDOWN_METRICS.map((value) => ({ value, label: t(METRIC_KEYS[value]) }))}
        onChange={setMetric}
        aria-label={t('stats:charts.metric')}
        style={{ marginBottom: 8 }}
        data-testid={`${testId}-metric`}
      />
      <LazyChart option={option} height={barChartHeight(shown.length)} ariaLabel={title} testId={testId} />
    </Card>
  );
}
