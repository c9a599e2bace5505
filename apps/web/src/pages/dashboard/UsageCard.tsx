import type { UsageOverview } from '@aiplatform/contracts';
import { LineChartOutlined, MessageOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Flex, Row, Statistic } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MY_USAGE_DAYS, useMyUsage } from '../../api/use-user-stats';
import { LazyChart } from '../../components/charts/LazyChart';
import { useAbilities } from '../../stores/abilities';
import { CardError, CardSkeleton } from './CardStates';
import { ModelBreakdown } from './ModelBreakdown';
import { dailyUsageOption, modelShares } from './usage-chart';

const CHART_HEIGHT = 260;

/** Nothing used yet: say so, and offer the way to change that. */
function NoUsage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mayChat = useAbilities().pages.chat;
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard:usage.empty')} data-testid="usage-empty">
      {mayChat && (
        <Button
          type="primary"
          icon={<MessageOutlined />}
          onClick={() => void navigate('/chat')}
          data-testid="usage-start-chat"
        >
          {t('dashboard:usage.startChat')}
        </Button>
      )}
    </Empty>
  );
}

function UsageBody({ usage }: { usage: UsageOverview }) {
  const { t, i18n } = useTranslation();
  const messagesLabel = t('dashboard:usage.messages');
  const creditsLabel = t('dashboard:usage.credits');
  const option = useMemo(
    () => dailyUsageOption(usage.days, { messages: messagesLabel, credits: creditsLabel }, i18n.language),
    [usage.days, messagesLabel, creditsLabel, i18n.language],
  );
  const shares = useMemo(() => modelShares(usage.models), [usage.models]);
  const totals = [
    { label: messagesLabel, value: usage.totals.messages, testId: 'usage-total-messages' },
    { label: creditsLabel, value: usage.totals.credits, testId: 'usage-total-credits' },
    {
      label: t('dashboard:usage.conversations'),
      value: usage.totals.conversations,
      testId: 'usage-total-conversations',
    },
    { label: t('dashboard:usage.tokens'), value: usage.totals.tokens, testId: 'usage-total-tokens' },
  ];

  return (
    <Flex vertical gap={16}>
      <Row gutter={[16, 16]}>
        {totals.map((total) => (
          <Col key={total.testId} xs={12} sm={6}>
            <Statistic title={total.label} value={total.value} data-testid={total.testId} />
          </Col>
        ))}
      </Row>
      <LazyChart
        option={option}
        height={CHART_HEIGHT}
        ariaLabel={t('dashboard:usage.chartLabel', { days: usage.days.length })}
        testId="usage-chart"
      />
      {shares.length > 0 && <ModelBreakdown shares={shares} />}
    </Flex>
  );
}

/** The signed-in user's own use over the last days: totals, a daily chart, the models used. */
export function UsageCard() {
  const { t } = useTranslation();
  const query = useMyUsage();
  const usage = query.data;

  return (
    <Card
      title={
        <span>
          <LineChartOutlined /> {t('dashboard:usage.title', { days: MY_USAGE_DAYS })}
        </span>
      }
      className="dashboard-card"
      data-testid="usage-card"
    >
      {usage ? (
        usage.totals.messages > 0 || usage.totals.credits > 0 ? (
          <UsageBody usage={usage} />
        ) : (
          <NoUsage />
        )
      ) : query.isError ? (
        <CardError error={query.error} onRetry={() => void query.refetch()} testId="usage" />
      ) : (
        <CardSkeleton rows={8} testId="usage" />
      )}
    </Card>
  );
}
