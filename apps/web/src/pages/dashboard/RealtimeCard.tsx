import { type RealtimeStats, STATS_POLL_SECONDS } from '@aiplatform/contracts';
import { ThunderboltOutlined } from '@ant-design/icons';
import { Card, Col, Flex, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRealtimeStats } from '../../api/use-user-stats';
import { formatDateTime, formatNumber } from '../../components/common/format';
import { CardError, CardSkeleton } from './CardStates';
import { type RealtimeView, realtimeView } from './realtime-view';

function PopularModels({ models, view }: { models: RealtimeStats['popular_models']; view: RealtimeView }) {
  const { t, i18n } = useTranslation();
  return (
    <div>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t(view.popularTitle)}
      </Typography.Title>
      {models.length === 0 ? (
        <Typography.Text type="secondary" data-testid="realtime-popular-empty">
          {t(view.popularEmpty)}
        </Typography.Text>
      ) : (
        <ol className="dashboard-ranking" data-testid="realtime-popular-models">
          {models.map((model) => (
            <li key={model.model_name} data-testid={`realtime-model-${model.model_name}`}>
              <Typography.Text ellipsis className="dashboard-ranking-name">
                {model.display_name || model.model_name}
              </Typography.Text>
              <Typography.Text type="secondary">
                {t('dashboard:realtime.uses', { count: formatNumber(model.usage_count, i18n.language) })}
              </Typography.Text>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function RealtimeBody({ stats, view }: { stats: RealtimeStats; view: RealtimeView }) {
  const { t, i18n } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <Row gutter={[16, 16]}>
        {view.figures.map((figure) => (
          <Col key={figure.key} xs={12} sm={8}>
            <Statistic title={t(figure.label)} value={stats[figure.key]} data-testid={figure.testId} />
          </Col>
        ))}
      </Row>
      <PopularModels models={stats.popular_models} view={view} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="realtime-updated">
        {t('dashboard:realtime.updatedAt', {
          time: formatDateTime(stats.timestamp, i18n.language),
          seconds: STATS_POLL_SECONDS,
        })}
      </Typography.Text>
    </Flex>
  );
}

/**
 * Today's live numbers in the viewer's scope (the server decides: the site, the group of a
 * group administrator, or one's own). The query polls on its own while this card is shown
 * (and pauses in a hidden tab), so the figures move without a reload.
 */
export function RealtimeCard() {
  const { t } = useTranslation();
  const query = useRealtimeStats();
  const view = realtimeView(query.data?.scope ?? 'user');

  return (
    <Card
      title={
        <span>
          <ThunderboltOutlined /> {query.data ? t(view.title) : t('dashboard:realtime.title')}
        </span>
      }
      className="dashboard-card"
      data-testid="realtime-card"
    >
      {query.data ? (
        <RealtimeBody stats={query.data} view={view} />
      ) : query.isError ? (
        <CardError error={query.error} onRetry={() => void query.refetch()} testId="realtime" />
      ) : (
        <CardSkeleton rows={6} testId="realtime" />
      )}
    </Card>
  );
}
