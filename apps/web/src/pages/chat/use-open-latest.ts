import type { Conversation } from '@aiplatform/contracts';
import { useEffect } from 'react';
import type { SetURLSearchParams } from 'react-router';
import { latestConversation } from './chat-start';

/**
 * `/chat` without a conversation opens the most recently used one, so returning users
 * continue where they left off. The address is replaced, not pushed: "back" leaves the chat
 * instead of returning to an address that would only open the same conversation again.
 * With no conversations the welcome screen stays.
 */
export function useOpenLatest(
  conversations: Conversation[] | undefined,
  selectedId: string | null,
  setParams: SetURLSearchParams,
): void {
  useEffect(() => {
    if (selectedId || !conversations) return;
    const latest = latestConversation(conversations);
    if (latest) setParams({ c: latest.id }, { replace: true });
  }, [conversations, selectedId, setParams]);
}
