import { Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../components/common/format';
import { MESSAGES_COLOR, type ModelShare } from './usage-chart';

/**
 * The period's use per model as a list with share bars: exact numbers to read, and at
 * phone width easier to follow than a pie's legend.
 */
export function ModelBreakdown({ shares }: { shares: ModelShare[] }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <div>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('dashboard:usage.byModel')}
      </Typography.Title>
      <ul className="dashboard-breakdown" data-testid="usage-models">
        {shares.map((share) => (
          <li key={share.modelName} data-testid={`usage-model-${share.modelName}`}>
            <div className="dashboard-breakdown-head">
              <Typography.Text strong ellipsis className="dashboard-ranking-name">
                {share.displayName}
              </Typography.Text>
              <Typography.Text type="secondary">
                {t('dashboard:usage.modelLine', { messages: n(share.messages), credits: n(share.credits) })}
              </Typography.Text>
            </div>
            <Progress
              percent={share.percent}
              size="small"
              strokeColor={MESSAGES_COLOR}
              aria-label={t('dashboard:usage.modelShare', { model: share.displayName })}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
