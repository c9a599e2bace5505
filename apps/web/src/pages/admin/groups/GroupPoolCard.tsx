import { CREDIT_AMOUNT_MAX, type Group } from '@aiplatform/contracts';
import { Button, Card, Col, Flex, InputNumber, Progress, Row, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatNumber } from '../../../components/common/format';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { previewPoolSize } from './pool-preview';

interface GroupPoolCardProps {
  group: Group;
  /** Holders of group.manage may resize the pool. */
  canResize: boolean;
  /** Opens the distribute/reclaim dialog; absent for those who may not move pool credits. */
  onTransfer?: () => void;
}

function PoolSizeEditor({ group }: { group: Group }) {
  const { t, i18n } = useTranslation();
  const [size, setSize] = useState<number | null>(group.credits_pool);
  const resize = useAdminMutation({
    mutationFn: (credits_pool: number) => call('setCreditsPool', { params: { id: group.id }, body: { credits_pool } }),
    invalidates: [adminKeys.groups],
    successText: (saved) =>
      t('admin:pool.resizedDone', { group: saved.name, total: formatNumber(saved.credits_pool, i18n.language) }),
    failureKey: 'admin:pool.resizeFailed',
  });
  const belowUsed = size !== null && size < group.credits_pool_used;
  const preview = previewPoolSize(group, size);
  const figure = (value: number) => formatNumber(value, i18n.language);
  return (
    <div>
      <Typography.Text strong>{t('admin:pool.size')}</Typography.Text>
      <Flex gap={8} wrap style={{ marginTop: 8 }}>
        <InputNumber<number>
          min={0}
          max={CREDIT_AMOUNT_MAX}
          precision={0}
          value={size}
          onChange={setSize}
          status={belowUsed ? 'error' : undefined}
          style={{ width: 180 }}
          data-testid="pool-size-input"
        />
        <Button
          onClick={() => size !== null && resize.mutate(size)}
          loading={resize.isPending}
          disabled={size === null || belowUsed || size === group.credits_pool}
          data-testid="pool-size-submit"
        >
          {t('admin:pool.setSize')}
        </Button>
      </Flex>
      {belowUsed ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {t('admin:pool.sizeBelowUsed', { used: formatNumber(group.credits_pool_used, i18n.language) })}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="pool-size-preview">
          {t('admin:pool.sizePreview', {
            fromTotal: figure(preview.total.from),
            toTotal: figure(preview.total.to),
            fromLeft: figure(preview.remaining.from),
            toLeft: figure(preview.remaining.to),
          })}
        </Typography.Text>
      )}
    </div>
  );
}

/** The group's credit pool: how much is in it, handed out and left; resize and transfers for those allowed. */
export function GroupPoolCard({ group, canResize, onTransfer }: GroupPoolCardProps) {
  const { t } = useTranslation();
  const percent = group.credits_pool > 0 ? Math.round((group.credits_pool_used / group.credits_pool) * 100) : 0;
  return (
    <Card size="small" title={t('admin:pool.title', { group: group.name })} data-testid="group-pool-card">
      <Row gutter={[16, 16]}>
        <Col xs={8}>
          <Statistic title={t('admin:pool.total')} value={group.credits_pool} />
        </Col>
        <Col xs={8}>
          <Statistic title={t('admin:pool.used')} value={group.credits_pool_used} />
        </Col>
        <Col xs={8}>
          <Statistic title={t('admin:pool.remaining')} value={group.credits_pool_remaining} />
        </Col>
      </Row>
      <Progress percent={percent} status={percent >= 100 ? 'exception' : 'active'} style={{ marginTop: 8 }} />
      <Flex vertical gap={16} style={{ marginTop: 12 }}>
        {onTransfer && (
          <div>
            <Button type="primary" onClick={onTransfer} data-testid="pool-transfer-button">
              {t('admin:pool.transfer')}
            </Button>
          </div>
        )}
        {canResize && <PoolSizeEditor key={group.credits_pool} group={group} />}
      </Flex>
    </Card>
  );
}
