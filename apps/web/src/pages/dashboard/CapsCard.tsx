import type { CapStatus } from '@aiplatform/contracts';
import { DashboardOutlined } from '@ant-design/icons';
import { Card, Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { capName, resetTimeText } from '../../api/cap-text';
import { useMyCaps } from '../../api/use-caps';
import { formatNumber } from '../../components/common/format';
import { CardError, CardSkeleton } from './CardStates';

function CapRow({ cap, now }: { cap: CapStatus; now: Date }) {
  const { t, i18n } = useTranslation();
  const percent = Math.min(100, Math.round((cap.used / cap.limit) * 100));
  const name = capName(t, cap.period, cap.model_name);
  return (
    <li data-testid={`cap-${cap.period}`}>
      <Flex justify="space-between" wrap gap={4}>
        <Typography.Text strong>{name}</Typography.Text>
        <Typography.Text type="secondary">{t(`common:caps.source.${cap.source}`)}</Typography.Text>
      </Flex>
      <Progress
        percent={percent}
        status={cap.used >= cap.limit ? 'exception' : 'normal'}
        showInfo={false}
        aria-label={name}
      />
      <Flex justify="space-between" wrap gap={4}>
        <Typography.Text data-testid={`cap-${cap.period}-used`}>
          {t('common:caps.used', {
            used: formatNumber(cap.used, i18n.language),
            limit: formatNumber(cap.limit, i18n.language),
          })}
        </Typography.Text>
        <Typography.Text type="secondary" data-testid={`cap-${cap.period}-resets`}>
          {t('common:caps.resets', { time: resetTimeText(cap.resets_at, now, i18n.language) })}
        </Typography.Text>
      </Flex>
    </li>
  );
}

/** The caps in force for the user: how much of each is used and when its window resets; none, no card. */
export function CapsCard() {
  const { t } = useTranslation();
  const caps = useMyCaps();
  const now = new Date();
  // Most people have no cap: the card shows only for those who do.
  if (caps.isSuccess && caps.data.applying.length === 0) return null;
  let body;
  if (caps.isLoading) body = <CardSkeleton rows={2} testId="caps-card" />;
  else if (caps.isError) body = <CardError error={caps.error} onRetry={() => void caps.refetch()} testId="caps-card" />;
  else
    body = (
      <ul className="caps-list">
        {caps.data?.applying.map((cap) => (
          <CapRow key={`${cap.source}/${cap.period}/${cap.model_name ?? ''}`} cap={cap} now={now} />
        ))}
      </ul>
    );
  return (
    <Card
      title={
        <span>
          <DashboardOutlined /> {t('common:caps.cardTitle')}
        </span>
      }
      data-testid="caps-card"
    >
      {body}
    </Card>
  );
}
