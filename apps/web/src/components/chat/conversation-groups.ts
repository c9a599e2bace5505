import type { Conversation } from '@aiplatform/contracts';

/** The sidebar's sections, in the order they are shown. */
export const CONVERSATION_GROUPS = ['pinned', 'today', 'yesterday', 'previous7', 'older'] as const;
export type ConversationGroupKey = (typeof CONVERSATION_GROUPS)[number];

export interface ConversationGroup<T> {
  key: ConversationGroupKey;
  conversations: T[];
}

type Dated = Pick<Conversation, 'is_pinned' | 'last_message_at' | 'updated_at' | 'created_at'>;

/** Local midnight `daysBack` days before the day of `now` (the Date constructor handles DST and month ends). */
function localMidnight(now: Date, daysBack: number): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack).getTime();
}

/** The last activity: the last message, else the last change, else the creation; NaN when none can be read. */
export function lastActivity(conversation: Dated): number {
  for (const value of [conversation.last_message_at, conversation.updated_at, conversation.created_at]) {
    const time = value ? Date.parse(value) : NaN;
    if (!Number.isNaN(time)) return time;
  }
  return NaN;
}

function dateGroup(activity: number, now: Date): ConversationGroupKey {
  // Unreadable dates go last; a time ahead of the clock (another device's clock) counts as today.
  if (Number.isNaN(activity)) return 'older';
  if (activity >= localMidnight(now, 0)) return 'today';
  if (activity >= localMidnight(now, 1)) return 'yesterday';
  if (activity >= localMidnight(now, 7)) return 'previous7';
  return 'older';
}

/**
 * Splits the list into the sidebar's sections: pinned conversations first whatever their
 * age, then by the day of their last activity in the browser's time zone. Each section keeps
 * the order of the input (the server's: priority, then latest); empty sections are left out.
 */
export function groupConversations<T extends Dated>(conversations: readonly T[], now: Date): ConversationGroup<T>[] {
  const byKey = new Map<ConversationGroupKey, T[]>(CONVERSATION_GROUPS.map((key) => [key, []]));
  for (const conversation of conversations) {
    const key = conversation.is_pinned ? 'pinned' : dateGroup(lastActivity(conversation), now);
    byKey.get(key)?.push(conversation);
  }
  return CONVERSATION_GROUPS.map((key) => ({ key, conversations: byKey.get(key) ?? [] })).filter(
    (group) => group.conversations.length > 0,
  );
}
