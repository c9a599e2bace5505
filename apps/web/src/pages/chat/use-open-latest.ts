import type { Conversation } from '@aiplatform/contracts';
import { useEffect } from 'react';
import type { SetURLSearchParams } from 'react-router';
import { latestConversation } from './chat-start';

/**
 * `/chat` without a conversation opens the most recently used one, so returning users
 * continue where they left off. The address is replaced, not pushed: "back" leaves the chat
 * instead of returning to an address that would only open the same conversation again.
 * With no conversations, or when a new chat was asked for (`shown`), the new chat stays.
 */
export function useOpenLatest(
  conversations: Conversation[] | undefined,
  shown: boolean,
  setParams: SetURLSearchParams,
): void {
  useEffect(() => {
    if (shown || !conversations) return;
    const latest = latestConversation(conversations);
    if (latest) setParams({ c: latest.id }, { replace: true });
  }, [conversations, shown, setParams]);
}
