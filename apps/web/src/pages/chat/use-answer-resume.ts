import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { queryKeys } from '../../api/query-keys';
import { resumeOpenAnswer } from './answer-resume';
import { type ChatSessions, useSessionValue } from './chat-sessions';

/**
 * Attaches to the open conversation's last answer while the server is still writing it:
 * after a reload, in another tab, on switching back to it, and when the network returns.
 * An answer the server no longer writes (its instance died; the sweep settles it soon)
 * is not asked for again until the network comes back.
 */
export function useAnswerResume(store: ChatSessions, conversationId: string | null): void {
  const queryClient = useQueryClient();
  const notWritten = useRef(new Set<string>());
  const [onlineAgain, setOnlineAgain] = useState(0);
  const streamingAnswer = useSessionValue(store, conversationId, (s) => {
    const last = s.messages.at(-1);
    const streaming = s.status === 'ready' && s.phase === 'idle' && last?.role === 'assistant';
    return streaming && last.status === 'streaming' && !last.temp ? last.id : null;
  });

  useEffect(() => {
    const online = () => {
      notWritten.current.clear();
      setOnlineAgain((n) => n + 1);
    };
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);

  useEffect(() => {
    if (!conversationId || !streamingAnswer || notWritten.current.has(streamingAnswer)) return;
    resumeOpenAnswer(store, conversationId, (outcome, answerId) => {
      if (outcome !== 'ended') notWritten.current.add(answerId);
      void queryClient.invalidateQueries({ queryKey: queryKeys.chatCredits });
      void queryClient.invalidateQueries({ queryKey: queryKeys.chatConversations });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stats });
    });
  }, [conversationId, onlineAgain, queryClient, store, streamingAnswer]);
}
