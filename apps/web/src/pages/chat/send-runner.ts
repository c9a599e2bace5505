import type { Conversation, MessageFile } from '@aiplatform/contracts';
import { isApiError } from '../../api/api-error';
import { recordCapRefusal } from '../../api/cap-refusal';
import { chatApi } from '../../api/chat';
import { isAbort, streamChatMessage } from '../../api/chat-stream';
import { toast } from '../../api/notify';
import { i18n } from '../../i18n';
import { type ChatMessage, type ChatSessions, tempId } from './chat-sessions';
import { createDeltaAccumulator } from './delta-accumulator';
import { type LiveText, createLiveText } from '../../components/chat/live-text';
import { followAnswer, isLostConnection, readBack, showReadBack } from './answer-resume';
import { lastShownId } from './follow-up-parent';
import { reportNotStored } from './answer-not-stored';
import { citationsPatch } from '../../components/documents/stream-citations';

/** One send, as the runners need it. */
export interface SendJob {
  store: ChatSessions;
  conversationId: string;
  /** The text sent (trimmed) and the text box as it was, restored on failure. */
  content: string;
  input: string;
  /** The images sent with the text, in order (uploads or a sent question's files). */
  images: MessageFile[];
  modelName: string | null;
  /**
   * A new version (an edit or a regenerate): the screen keeps its first `keep` messages
   * and shows the new turn after them, as the server will; nothing is deleted. An edit
   * names its question's parent; a regenerate the stored question answered again. A
   * retry (`inPlaceOf`: the failed answer shown) answers in its place, the rest kept.
   */
  rework?: { keep: number; parentId?: string | null; regenerateOf?: string; inPlaceOf?: string };
  /** After every attempt: the balance the server reported, if it did. */
  onSettled: (creditsRemaining: number | undefined, conversation?: Conversation) => void;
}

/** Waits a moment after a stop so the server has stored the stopped answer before it is read back. */
const RESYNC_DELAY_MS = 800;

function temporaryPair(job: SendJob, live?: LiveText): [ChatMessage, ChatMessage] {
  const now = new Date().toISOString();
  const base = { conversation_id: job.conversationId, created_at: now, tokens: 0, temp: true } as const;
  return [
    {
      ...base,
      id: tempId('user'),
      role: 'user',
      content: job.content,
      files: job.images,
      file: job.images[0] ?? null,
      model_name: null,
      status: 'complete',
      parent_id: job.rework?.parentId ?? null,
    },
    {
      ...base,
      id: tempId('assistant'),
      role: 'assistant',
      content: '',
      files: [],
      file: null,
      model_name: job.modelName,
      status: 'streaming',
      parent_id: job.rework?.regenerateOf ?? null,
      streaming: true,
      live,
    },
  ];
}

function restoreInput(job: SendJob): void {
  // The box stays open while an answer is produced: text typed meanwhile is kept after the
  // question, and a send queued behind the refused one waits for the user to look again.
  job.store.update(job.conversationId, (s) => ({
    input: s.input && s.input !== job.input ? `${job.input}\n\n${s.input}` : job.input,
    images: s.images.length > 0 ? s.images : job.images,
    queued: false,
  }));
}

/** The error message, or the send-failed text; quiet when the client already toasted. */
function reportSendFailure(error: unknown): void {
  // A cap's refusal also stays above the text box (the toast alone is gone in seconds).
  if (isApiError(error) && recordCapRefusal(error.code, error.data) && !error.notified) {
    toast('error', error.message, { duration: 8 });
    return;
  }
  if (isApiError(error) && (error.notified || error.kind === 'cancelled')) return;
  if (isApiError(error) && error.message) toast('error', error.message);
  else if (error instanceof TypeError) toast('error', i18n.t('common:errors.network'));
  else {
    console.error(error);
    toast('error', i18n.t('chat:send.failed'));
  }
}

/** Reads the messages back from the server when the screen cannot know their ids or fate. */
function resync(job: SendJob): void {
  readBack(job.store, job.conversationId, RESYNC_DELAY_MS);
}

function begin(
  job: SendJob,
  phase: 'streaming' | 'waiting',
  live?: LiveText,
): { user: ChatMessage; assistant: ChatMessage; controller: AbortController } {
  const [user, assistant] = temporaryPair(job, live);
  const controller = new AbortController();
  const again = job.rework?.regenerateOf;
  job.store.update(job.conversationId, (s) => {
    // A retry answers where the answer failed: what followed stays on screen.
    const inPlaceOf = job.rework?.inPlaceOf;
    if (again && inPlaceOf) return { phase, messages: s.messages.map((m) => (m.id === inPlaceOf ? assistant : m)) };
    const kept = job.rework ? s.messages.slice(0, job.rework.keep) : s.messages;
    // A regenerate answers the question already shown: only the answer is new.
    return { phase, messages: again ? [...kept, assistant] : [...kept, user, assistant] };
  });
  job.store.setController(job.conversationId, controller);
  return { user: again ? { ...user, id: again } : user, assistant, controller };
}

/**
 * What a turn posts: the text and images, and where it goes. An ordinary send names the
 * last message this page shows: the branch stored on the server may have been changed
 * meanwhile by another tab, and the question belongs on the branch the person sees.
 */
function turnBody(job: SendJob) {
  const body = { content: job.content, file_ids: job.images.map((f) => f.id) };
  if (job.rework?.regenerateOf) return { ...body, regenerateOf: job.rework.regenerateOf };
  if (job.rework && job.rework.parentId !== undefined) return { ...body, parent_id: job.rework.parentId };
  // Before the branch is read (never the case once the composer is enabled) the server places it.
  const session = job.store.get(job.conversationId);
  return session.status === 'ready' ? { ...body, parent_id: lastShownId(session.messages) } : body;
}

function end(job: SendJob): void {
  job.store.setController(job.conversationId, null);
  job.store.update(job.conversationId, { phase: 'idle' });
}

/**
 * Stream mode: temporary messages at once, replaced at `init`; deltas are
 * published once per frame; `done` gives the final text, tokens and id. Stop keeps the
 * partial text as a stopped answer. An error the server reports keeps the question, with the
 * partial answer marked or, with none, the reason and a retry; a refusal before the turn
 * began (credits, validation, network) removes the messages and restores the input.
 */
export async function runStreamSend(job: SendJob): Promise<void> {
  const { store, conversationId: id } = job;
  // The growing text goes to the answer's live text, once per frame; the message list
  // itself changes only when the answer begins and ends.
  const live = createLiveText();
  const { user, assistant, controller } = begin(job, 'streaming', live);
  let userId = user.id;
  let assistantId = assistant.id;
  let initialised = false;
  let credits: number | undefined;
  const setAssistant = (patch: Partial<ChatMessage>) =>
    store.updateMessages(id, (list) => list.map((m) => (m.id === assistantId ? { ...m, ...patch } : m)));
  const text = createDeltaAccumulator((content) => live.set(content));
  const noAnswer = (message: string) => {
    // The server keeps the question as `unanswered` (its turn refunded); so does the screen.
    store.updateMessages(id, (list) => list.map((m) => (m.id === userId ? { ...m, status: 'unanswered' } : m)));
    setAssistant({
      content: '',
      status: 'error',
      streaming: false,
      failure: { message, questionId: userId, content: job.content, images: job.images },
    });
  };

  try {
    await streamChatMessage(
      id,
      turnBody(job),
      {
        onInit: (data) => {
          store.updateMessages(id, (list) =>
            list.map((m) =>
              m.id === userId
                ? data.user_message
                : m.id === assistantId
                  ? { ...m, id: data.ai_message_id, temp: false }
                  : m,
            ),
          );
          userId = data.user_message.id;
          assistantId = data.ai_message_id;
          initialised = true;
          credits = data.credits_info.credits_remaining;
        },
        onDelta: (delta) => text.push(delta),
        onDone: (data) => {
          text.finish();
          // Stopped before the first word: the server refunded the turn and kept the question.
          if (!data.content && data.finish_reason === 'stopped') return noAnswer(i18n.t('chat:message.noAnswer'));
          const status = data.finish_reason === 'stopped' ? 'stopped' : 'complete';
          setAssistant({
            id: data.messageId,
            content: data.content,
            tokens: data.tokens,
            status,
            streaming: false,
            temp: false,
            finishReason: data.finish_reason,
            ...citationsPatch(data),
          });
          assistantId = data.messageId;
        },
      },
      controller.signal,
    );
  } catch (error) {
    const partial = text.finish();
    // Once the server has taken the turn, its outcome stays where it happened: a partial
    // answer stays (charged, marked), and no answer at all shows why, with a retry. The
    // question is never put back into the box, which would invite a second paid send.
    if (isAbort(error)) {
      toast('info', i18n.t('chat:send.stopped'));
      if (partial) setAssistant({ content: partial, status: 'stopped', streaming: false });
      else if (initialised) noAnswer(i18n.t('chat:message.noAnswer'));
      else {
        // Stopped before the server answered at all: nothing was produced, so nothing is lost.
        store.updateMessages(id, (list) => list.filter((m) => m.id !== userId && m.id !== assistantId));
        restoreInput(job);
        resync(job);
      }
    } else if (initialised && isLostConnection(error)) {
      // A lost connection is not a stop: the server goes on writing the answer; attach to it again.
      live.set(partial);
      await followAnswer({ store, conversationId: id, answerId: assistantId, live, signal: controller.signal });
    } else if (partial) {
      // The server reported an error mid-answer: it keeps the text (charged) as interrupted.
      // What it stored is read back: when it could not store this text (another server
      // settled the answer, or the database was away), the stored one replaces it, and why is said.
      setAssistant({ content: partial, status: 'error', streaming: false });
      reportNotStored(error);
      resync(job);
    } else if (initialised) {
      noAnswer(isApiError(error) && error.message ? error.message : i18n.t('chat:send.failed'));
    } else {
      store.updateMessages(id, (list) => list.filter((m) => m.id !== userId && m.id !== assistantId));
      restoreInput(job);
      reportSendFailure(error);
    }
  } finally {
    end(job);
    job.onSettled(credits);
    // A new version: read the branch back for its versions (`‹ 1/2 ›`).
    if (job.rework) resync(job);
  }
}

/**
 * Non-stream mode: one request. A refusal removes the temporary messages and restores the
 * input; an answer that never came leaves the question on the server, read back here.
 */
export async function runPlainSend(job: SendJob): Promise<void> {
  const { store, conversationId: id } = job;
  const shownBefore = new Set(store.get(id).messages.map((m) => m.id));
  const { user, assistant, controller } = begin(job, 'waiting');
  const withoutTemps = (list: ChatMessage[]) => list.filter((m) => m.id !== user.id && m.id !== assistant.id);
  try {
    const answer = await chatApi.sendMessage(id, turnBody(job), controller.signal);
    store.updateMessages(id, (list) => [...withoutTemps(list), answer.user_message, answer.assistant_message]);
    end(job);
    job.onSettled(answer.credits_info.credits_remaining, answer.conversation);
    if (job.rework) resync(job);
  } catch (error) {
    store.updateMessages(id, withoutTemps);
    if (isApiError(error) && (error.code === 'UPSTREAM_ERROR' || error.code === 'ANSWER_ENDED_ELSEWHERE')) {
      // The server took the turn: refunded, the question kept as unanswered, or settled
      // elsewhere with another text. Read it back (with its "no answer: retry" line, or the
      // stored text) instead of putting the text back in the box.
      reportNotStored(error);
      resync(job);
    } else if (isAbort(error)) {
      restoreInput(job);
      toast('info', i18n.t('chat:send.stopped'));
      resync(job);
    } else if (isLostConnection(error)) {
      end(job);
      job.onSettled(undefined);
      await readBackLostSend(job, shownBefore);
      return;
    } else {
      restoreInput(job);
      reportSendFailure(error);
    }
    end(job);
    job.onSettled(undefined);
  }
}

/**
 * A non-streamed send whose connection was lost may have reached the server, which goes on
 * answering it: the conversation is read back, and the text goes back into the box only when
 * the server has no new message from it (putting it back otherwise invites a second paid
 * send). An answer the server is still writing is then attached to as after a reload.
 */
async function readBackLostSend(job: SendJob, shownBefore: Set<string>): Promise<void> {
  const messages = await chatApi.messages(job.conversationId).catch(() => undefined);
  const taken = messages?.some((m) => !shownBefore.has(m.id));
  if (messages && taken) return showReadBack(job.store, job.conversationId, messages);
  restoreInput(job);
  toast('error', i18n.t('common:errors.network'));
}
