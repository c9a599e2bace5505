import { type CreditTransaction, type Language, type TransactionType } from '@aiplatform/contracts';
import { translate } from '../../lib/i18n.js';
import type { LedgerRow } from './credits-writer.js';

/** Ledger descriptions are stored as i18n keys and read in the reader's language. */
export function ledgerDescription(lang: Language, description: string): string {
  return description.startsWith('server.ledger.') ? translate(lang, description) : description;
}

export function toCreditTransaction(
  row: LedgerRow & { operator_username?: string | null },
  lang: Language,
): CreditTransaction {
  return {
    id: row.id,
    user_id: row.user_id,
    transaction_type: row.transaction_type as TransactionType,
    amount: row.amount,
    balance_after: row.balance_after,
    description: ledgerDescription(lang, row.description),
    operator_id: row.operator_id,
    operator_username: row.operator_username ?? null,
    reason: row.reason,
    created_at: row.created_at,
  };
}
