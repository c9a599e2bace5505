import type { AdminModel } from '@aiplatform/contracts';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/common/format';
import { testStateOf } from './model-format';

/** The last connection test: never tested, success with its latency, or failure with the upstream's message. */
export function ModelTestStatus({ model }: { model: AdminModel }) {
  const { t, i18n } = useTranslation();
  const state = testStateOf(model);
  const testId = `model-test-status-${model.id}`;
  if (state.kind === 'never')
    return (
      <Typography.Text type="secondary" data-testid={testId} data-status="never">
        {t('catalog:models.test.never')}
      </Typography.Text>
    );
  const at = state.at && (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {formatDateTime(state.at, i18n.language)}
    </Typography.Text>
  );
  if (state.kind === 'success')
    return (
      <Flex vertical gap={2} align="start" data-testid={testId} data-status="success">
        <Tag color="success">
          {state.latencyMs === null
            ? t('catalog:models.test.ok')
            : t('catalog:models.test.okLatency', { latency: state.latencyMs })}
        </Tag>
        {at}
      </Flex>
    );
  return (
    <Flex vertical gap={2} align="start" data-testid={testId} data-status="failed">
      <Tooltip title={state.message}>
        <Tag color="error" tabIndex={0}>
          {t('catalog:models.test.failedTag')}
        </Tag>
      </Tooltip>
      {state.message && (
        <Typography.Text type="danger" ellipsis style={{ fontSize: 12, maxWidth: 180 }}>
          {state.message}
        </Typography.Text>
      )}
      {at}
    </Flex>
  );
}
