import type { TransactionType } from '@aiplatform/contracts';

/** Translation keys of ledger entry types, written out so the locale check sees each one. */
export const TRANSACTION_TYPE_KEYS: Record<TransactionType, string> = {
  admin_add: 'admin:transaction.admin_add',
  admin_deduct: 'admin:transaction.admin_deduct',
  admin_set: 'admin:transaction.admin_set',
  chat_consume: 'admin:transaction.chat_consume',
  system_refund: 'admin:transaction.system_refund',
  system_reward: 'admin:transaction.system_reward',
  group_distribute: 'admin:transaction.group_distribute',
  group_reclaim: 'admin:transaction.group_reclaim',
  embedding: 'admin:transaction.embedding',
};

export type ActiveStatus = 'active' | 'inactive';

export const STATUS_KEYS: Record<ActiveStatus, string> = {
  active: 'admin:status.active',
  inactive: 'admin:status.inactive',
};
