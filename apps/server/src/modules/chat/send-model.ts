import type { Settings } from '@aiplatform/contracts';
import type { ConversationRow, UserRow } from '../../db/types.js';
import type { CallableModel, ModelsService } from '../models/models.service.js';

/**
 * A step of a send: the conversation's model, if the sender's group may use it (else
 * MODEL_UNAVAILABLE), ready to call. The row is read afresh on every send, so an
 * administrator's change applies to the next one.
 */
export async function usableModel(
  models: ModelsService,
  conversation: ConversationRow,
  user: UserRow,
): Promise<CallableModel> {
  return models.callable(await models.findUsable(conversation.model_name, user.group_id));
}

/** What a turn costs and what balance its sender must hold to start it. */
export interface TurnPrice {
  /** Charged when the turn is reserved; 0 when credits are off. */
  cost: number;
  /** The balance required: at least the cost, or the site's minimum for chatting when higher. */
  required: number;
}

/**
 * The model's price for one turn under the site's credit settings: its price per chat, plus
 * `documentCredits` for the document tokens the turn sends (see `TurnDocuments`).
 */
export function turnPrice(
  model: Pick<CallableModel, 'row'>,
  credits: Settings['credits'],
  documentCredits = 0,
): TurnPrice {
  if (!credits.enabled) return { cost: 0, required: 0 };
  const cost = model.row.credits_per_chat + documentCredits;
  return { cost, required: Math.max(cost, credits.min_credits_for_chat) };
}
