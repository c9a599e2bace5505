import type { ApiKey } from '@aiplatform/contracts';
import { Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatDateTime, formatNumber } from '../common/format';
import { apiKeyStatus } from './api-key-form';

const STATUS_COLORS = { active: 'success', expired: 'default', revoked: 'error' } as const;

/**
 * The columns a key shows wherever it is listed (its owner's profile and the administrators'
 * list): name, prefix, models, limit with what it spent, expiry, last use and state.
 */
export function apiKeyColumns<T extends ApiKey>(t: TFunction, language: string, now: Date): ColumnsType<T> {
  const when = (value: string | null, none: string) => (value ? formatDateTime(value, language) : none);
  return [
    { key: 'name', title: t('profile:apiKeys.name'), dataIndex: 'name' },
    {
      key: 'prefix',
      title: t('profile:apiKeys.prefix'),
      dataIndex: 'prefix',
      render: (prefix: string) => (
        <Typography.Text code data-testid="api-key-prefix">
          {`${prefix}…`}
        </Typography.Text>
      ),
    },
    {
      key: 'models',
      title: t('profile:apiKeys.models'),
      dataIndex: 'models',
      render: (models: string[]) =>
        models.length === 0 ? (
          t('profile:apiKeys.allModels')
        ) : (
          <Space size={[4, 4]} wrap>
            {models.map((m) => (
              <Tag key={m}>{m}</Tag>
            ))}
          </Space>
        ),
    },
    {
      key: 'limit',
      title: t('profile:apiKeys.limit'),
      render: (_: unknown, key: T) => (
        <span data-testid="api-key-limit">
          {key.credit_limit === null || key.period === null
            ? t('profile:apiKeys.noLimit')
            : t(`profile:apiKeys.limitOf.${key.period}`, { limit: formatNumber(key.credit_limit, language) })}
          <br />
          <Typography.Text type="secondary">
            {t('profile:apiKeys.spent', { spent: formatNumber(key.spent_in_period, language) })}
          </Typography.Text>
        </span>
      ),
    },
    {
      key: 'expires',
      title: t('profile:apiKeys.expires'),
      dataIndex: 'expires_at',
      render: (v: string | null) => when(v, t('profile:apiKeys.never')),
    },
    {
      key: 'lastUsed',
      title: t('profile:apiKeys.lastUsed'),
      dataIndex: 'last_used_at',
      render: (v: string | null) => when(v, t('profile:apiKeys.notUsed')),
    },
    {
      key: 'status',
      title: t('profile:apiKeys.status'),
      render: (_: unknown, key: T) => {
        const status = apiKeyStatus(key, now);
        return (
          <Tag color={STATUS_COLORS[status]} data-testid="api-key-status" data-status={status}>
            {t(`profile:apiKeys.state.${status}`)}
          </Tag>
        );
      },
    },
  ];
}
