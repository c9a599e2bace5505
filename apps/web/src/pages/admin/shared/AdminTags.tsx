import type { TransactionType } from '@aiplatform/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { tagStyle } from '../../../components/common/UserTags';
import { useResolvedTheme } from '../../../theme/theme-store';
import { type ActiveStatus, STATUS_KEYS, TRANSACTION_TYPE_KEYS } from './labels';

export function StatusTag({ status }: { status: ActiveStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={status === 'active' ? 'success' : 'default'} data-testid={`status-${status}`}>
      {t(STATUS_KEYS[status])}
    </Tag>
  );
}

const CREDIT_IN: ReadonlySet<TransactionType> = new Set([
  'admin_add',
  'system_refund',
  'system_reward',
  'group_distribute',
]);

export function TransactionTypeTag({ type }: { type: TransactionType }) {
  const { t } = useTranslation();
  const key = TRANSACTION_TYPE_KEYS[type] as string | undefined;
  const color = CREDIT_IN.has(type) ? 'green' : type === 'admin_set' ? 'blue' : 'orange';
  const theme = useResolvedTheme();
  return (
    <Tag color={color} style={tagStyle(color, theme)}>
      {key ? t(key) : type}
    </Tag>
  );
}
