import type { ChatSessions } from './chat-sessions';

/**
 * A message sent while an answer is still produced waits for that answer to end (stopped,
 * finished or failed: the conversation's phase is back to `idle`) and then `fire`s, which
 * sends whatever the text box holds then, as a press of "send" at that moment would.
 *
 * The wait lives on the store, not on a component, so it still fires when the user has
 * opened another conversation meanwhile. Any edit of the text box or the image cancels it
 * (the composer clears `queued`): what is sent is always exactly what the box shows, and
 * cancelling needs no extra control, just a keystroke.
 */
export function queueSend(store: ChatSessions, id: string, fire: () => void): void {
  const current = store.get(id);
  if (current.phase === 'idle') return fire();
  // One wait per conversation: a second "send" while queued changes nothing.
  if (current.queued) return;
  store.update(id, { queued: true });
  const unsubscribe = store.subscribe(id, () => {
    const session = store.get(id);
    if (!session.queued) return unsubscribe();
    if (session.phase !== 'idle') return;
    unsubscribe();
    store.update(id, { queued: false });
    // After the notification that ended the answer has reached everyone (the ending
    // send's own bookkeeping runs right after it), not in the middle of it.
    queueMicrotask(fire);
  });
}
