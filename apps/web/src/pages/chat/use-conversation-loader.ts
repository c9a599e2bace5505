import { useCallback, useEffect } from 'react';
import { chatApi } from '../../api/chat';
import { reportError } from '../../components/common/report-error';
import { i18n } from '../../i18n';
import { withNoAnswerMarks } from './no-answer';
import type { ChatSessions } from './chat-sessions';
import type { DraftKeeper } from './draft-keeper';

/**
 * Opens a conversation: its detail (with the draft) and its messages are read once;
 * after that the kept state is shown as it was left. Returns a retry.
 */
export function useConversationLoader(store: ChatSessions, drafts: DraftKeeper, id: string | null): () => void {
  const load = useCallback(
    (conversationId: string) => {
      store.update(conversationId, { status: 'loading' });
      Promise.all([chatApi.conversation(conversationId), chatApi.messages(conversationId)]).then(
        ([detail, messages]) => {
          store.update(conversationId, (s) => ({
            status: 'ready',
            detail,
            // An answer started meanwhile owns the list; otherwise the server's list is the truth.
            messages:
              s.phase === 'idle'
                ? withNoAnswerMarks(messages, i18n.t('chat:message.noAnswer'), (code) => i18n.t(`errors:${code}`))
                : s.messages,
            input: s.input || drafts.restore(conversationId, detail.draft),
          }));
        },
        (error: unknown) => {
          store.update(conversationId, { status: 'error' });
          reportError(error, 'chat:conversation.loadFailed');
        },
      );
    },
    [drafts, store],
  );

  useEffect(() => {
    if (id && store.get(id).status === 'idle') load(id);
  }, [id, load, store]);

  return useCallback(() => {
    if (id) load(id);
  }, [id, load]);
}
