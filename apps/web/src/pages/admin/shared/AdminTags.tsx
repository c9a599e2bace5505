import type { Role, TransactionType } from '@aiplatform/contracts';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROLE_COLORS, ROLE_LABEL_KEYS } from '../../../components/common/labels';
import { type ActiveStatus, STATUS_KEYS, TRANSACTION_TYPE_KEYS } from './labels';

export function StatusTag({ status }: { status: ActiveStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={status === 'active' ? 'success' : 'default'} data-testid={`status-${status}`}>
      {t(STATUS_KEYS[status])}
    </Tag>
  );
}

export function RoleTag({ role }: { role: Role }) {
  const { t } = useTranslation();
  return <Tag color={ROLE_COLORS[role]}>{t(ROLE_LABEL_KEYS[role])}</Tag>;
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
  return (
    <Tag color={CREDIT_IN.has(type) ? 'green' : type === 'admin_set' ? 'blue' : 'orange'}>{key ? t(key) : type}</Tag>
  );
}

/** A group's name after a dot in its colour; users without a group show the translated "no group". */
export function GroupLabel({ name, color }: { name: string | null; color: string | null }) {
  const { t } = useTranslation();
  return (
    <Space size={6}>
      <span
        aria-hidden
        style={{
          display: 'inline-block',
          width: 10,
          height: 10,
          borderRadius: '50%',
          background: color ?? '#d9d9d9',
        }}
      />
      <span>{name ?? t('common:noGroup')}</span>
    </Space>
  );
}
