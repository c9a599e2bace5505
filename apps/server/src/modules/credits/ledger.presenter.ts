import { type CreditTransaction, type Language, type TransactionType } from '@aiplatform/contracts';
import { translate } from '../../lib/runtime/i18n.js';
import type { LedgerRow } from './credits-writer.js';

/** Chat lines that name their model when it is known (`…With` keys take `{{model}}`). */
const WITH_MODEL = new Set([
  'server.ledger.chatConsume',
  'server.ledger.chatRefund',
  'server.ledger.apiConsume',
  'server.ledger.apiRefund',
]);

/** The name a ledger line shows for its model: the current display name, else the stored id. */
export const ledgerModelName = (row: { model_name?: string | null; model_display_name?: string | null }) =>
  row.model_display_name || row.model_name || null;

/**
 * Ledger descriptions are stored as i18n keys and read in the reader's language; a chat
 * line names its model by its display name as of reading (ids stay stored, so a renamed
 * model shows its new name).
 */
export function ledgerDescription(lang: Language, description: string, model: string | null = null): string {
  if (!description.startsWith('server.ledger.')) return description;
  if (model && WITH_MODEL.has(description)) return translate(lang, `${description}With`, { model });
  return translate(lang, description);
}

export function toCreditTransaction(
  row: LedgerRow & {
    operator_username?: string | null;
    model_name?: string | null;
    model_display_name?: string | null;
  },
  lang: Language,
): CreditTransaction {
  return {
    id: row.id,
    user_id: row.user_id,
    transaction_type: row.transaction_type as TransactionType,
    amount: row.amount,
    balance_after: row.balance_after,
    description: ledgerDescription(lang, row.description, ledgerModelName(row)),
    operator_id: row.operator_id,
    operator_username: row.operator_username ?? null,
    reason: row.reason,
    created_at: row.created_at,
  };
}
