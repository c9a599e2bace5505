/** Prefix of the chat data this browser keeps for the signed-in user (draft copies). */
export const CHAT_DRAFT_PREFIX = 'aiplatform-chat-draft:';

/** Signing in and signing out clear the chat data kept in the browser. */
export function clearChatLocalData(): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(CHAT_DRAFT_PREFIX)) keys.push(key);
    }
    keys.forEach((key) => localStorage.removeItem(key));
  } catch {
    // Storage unavailable (private mode, disabled): there is nothing to clear.
  }
}
