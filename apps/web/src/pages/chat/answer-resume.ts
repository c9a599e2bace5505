import type { Message } from '@aiplatform/contracts';
import { isApiError } from '../../api/api-error';
import { chatApi } from '../../api/chat';
import { isAbort, resumeChatAnswer } from '../../api/chat-stream';
import { toast } from '../../api/notify';
import { type LiveText, createLiveText } from '../../components/chat/live-text';
import { i18n } from '../../i18n';
import type { ChatMessage, ChatSessions } from './chat-sessions';
import { createDeltaAccumulator } from './delta-accumulator';
import { withNoAnswerMarks } from './no-answer';
import { reportNotStored } from './answer-not-stored';
import { citationsPatch } from '../../components/documents/stream-citations';

/** Waits before attaching again after a lost connection, one per attempt while online. */
const RETRY_DELAYS_MS = [300, 1000, 2000, 4000, 8000];
/** After a stop, the server has stored the answer by the time this passes (the stop call waits for it). */
const READ_BACK_DELAY_MS = 800;

/** An answer the server is still writing, as this page shows it. */
export interface FollowedAnswer {
  store: ChatSessions;
  conversationId: string;
  answerId: string;
  live: LiveText;
  /** Aborted by the Stop button (which also tells the server). */
  signal: AbortSignal;
}

/** A connection lost or cut short, as opposed to the server saying how the answer ended. */
export function isLostConnection(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  return isApiError(error) && (error.kind === 'network' || error.kind === 'format' || error.kind === 'timeout');
}

/** Shows the conversation as the server answered it, unless a turn began on screen meanwhile. */
export function showReadBack(store: ChatSessions, conversationId: string, messages: Message[]): void {
  store.update(conversationId, (s) =>
    s.phase === 'idle'
      ? { messages: withNoAnswerMarks(messages, i18n.t('chat:message.noAnswer'), (code) => i18n.t(`errors:${code}`)) }
      : {},
  );
}

export function readBack(store: ChatSessions, conversationId: string, delayMs = 0): void {
  window.setTimeout(() => {
    chatApi.messages(conversationId).then(
      (messages) => showReadBack(store, conversationId, messages),
      (error: unknown) => console.warn('Could not re-read the conversation', error),
    );
  }, delayMs);
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = window.setTimeout(done, ms);
    function done() {
      window.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      window.removeEventListener('online', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
    // Offline, the wait lasts until the network is back (or the user stops).
    if (!navigator.onLine) {
      window.clearTimeout(timer);
      window.addEventListener('online', done, { once: true });
    }
  });

/**
 * Follows an answer the server is still writing (GET …/stream): the text so far, then
 * the rest live; a lost connection attaches again (at once when the network returns), so a
 * flaky network never fails the turn. The server decides how the answer ends: done, an
 * error, or a stop (the Stop button aborts `signal` after telling the server). Resolves
 * once the answer shows its end (`ended`), when the server writes it no more (`gone`: read
 * back), or when this page gave up following it (`lost`: it stays as last seen, and is
 * picked up again when the network returns or the conversation is opened).
 */
export async function followAnswer(job: FollowedAnswer): Promise<'ended' | 'gone' | 'lost'> {
  const { store, conversationId: id, live, signal } = job;
  const answerId = job.answerId;
  const setAssistant = (patch: Partial<ChatMessage>) =>
    store.updateMessages(id, (list) => list.map((m) => (m.id === answerId ? { ...m, ...patch } : m)));
  let attempt = 0;
  for (;;) {
    const text = createDeltaAccumulator((content) => live.set(content));
    // Aborted when the server resumes another answer than this one.
    const attach = new AbortController();
    const onStop = () => attach.abort();
    signal.addEventListener('abort', onStop, { once: true });
    if (signal.aborted) attach.abort();
    let elsewhere = false;
    const leaveToOtherAnswer = () => {
      setAssistant({ content: text.finish() || live.text(), streaming: false });
      readBack(store, id);
      return 'ended' as const;
    };
    try {
      const found = await resumeChatAnswer(
        id,
        {
          onResume: (data) => {
            // Another answer is written (on a branch another tab shows now): not the one on
            // this screen, so it is not followed here; the branch is read back instead.
            if (data.message_id !== answerId) {
              elsewhere = true;
              attach.abort();
              return;
            }
            attempt = 0;
            text.push(data.content);
          },
          onDelta: (delta) => {
            if (!elsewhere) text.push(delta);
          },
          onDone: (data) => {
            if (elsewhere) return;
            text.finish();
            setAssistant({
              id: data.messageId,
              content: data.content,
              tokens: data.tokens,
              status: data.finish_reason === 'stopped' ? 'stopped' : 'complete',
              streaming: false,
              temp: false,
              finishReason: data.finish_reason,
              ...citationsPatch(data),
            });
          },
        },
        attach.signal,
      );
      if (elsewhere) return leaveToOtherAnswer();
      // Nothing is written any more (it ended meanwhile): the stored answer is the truth.
      // Refunded before its first word: the server kept the question; read that back too.
      if (!found || !text.text()) {
        setAssistant({ streaming: false });
        readBack(store, id);
      }
      return found ? 'ended' : 'gone';
    } catch (error) {
      const partial = text.finish() || live.text();
      if (elsewhere && !signal.aborted) return leaveToOtherAnswer();
      if (isAbort(error)) {
        toast('info', i18n.t('chat:send.stopped'));
        setAssistant({ content: partial, status: 'stopped', streaming: false });
        readBack(store, id, READ_BACK_DELAY_MS);
        return 'ended';
      }
      if (isLostConnection(error) && attempt < RETRY_DELAYS_MS.length) {
        live.set(partial);
        await wait(RETRY_DELAYS_MS[attempt] ?? 0, signal);
        if (navigator.onLine) attempt += 1;
        continue;
      }
      // The server reported an error (the text so far is kept, charged), or the network stayed away.
      setAssistant({
        content: partial,
        status: isLostConnection(error) ? 'streaming' : 'error',
        streaming: false,
      });
      if (!isLostConnection(error)) {
        reportNotStored(error);
        readBack(store, id);
        return 'ended';
      }
      return 'lost';
    } finally {
      signal.removeEventListener('abort', onStop);
    }
  }
}

/**
 * A conversation opened (after a reload, in another tab, on coming back) whose last answer
 * the server is still writing: shows it growing, with the Stop button. `onEnd` runs when
 * following it ends (credits and the list are read again). True when it attached.
 */
export function resumeOpenAnswer(
  store: ChatSessions,
  conversationId: string,
  onEnd: (outcome: 'ended' | 'gone' | 'lost', answerId: string) => void,
): boolean {
  const session = store.get(conversationId);
  const last = session.messages.at(-1);
  if (session.phase !== 'idle' || last?.role !== 'assistant' || last.status !== 'streaming' || last.temp) return false;
  const live = createLiveText();
  live.set(last.content);
  const controller = new AbortController();
  store.update(conversationId, (s) => ({
    phase: 'streaming',
    messages: s.messages.map((m) => (m.id === last.id ? { ...m, streaming: true, live } : m)),
  }));
  store.setController(conversationId, controller);
  void followAnswer({ store, conversationId, answerId: last.id, live, signal: controller.signal }).then((outcome) => {
    store.setController(conversationId, null);
    store.update(conversationId, { phase: 'idle' });
    onEnd(outcome, last.id);
  });
  return true;
}
