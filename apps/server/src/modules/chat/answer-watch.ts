import type { ErrorCode, StreamEvent } from '@aiplatform/contracts';
import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { notFound } from '../../lib/http/errors.js';
import { type AnswerPiece, WATCH_REQUEST, type WatchRequest, piecesOf } from './answer-forwarding.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { MessageBranches, MessageNode } from './message-branches.js';
import type { MessageTree } from './message-tree.js';
import type { MessagesRepo } from './messages.repo.js';
import { parseCitations } from './chat.presenter.js';

type DoneData = Extract<StreamEvent, { event: 'done' }>['data'];

/** Where a watched answer goes (the SSE stream of GET …/stream). */
export interface WatchSink {
  /** First: the text so far. */
  resume(messageId: string, content: string): void;
  delta(text: string): void;
  done(data: DoneData): void;
  error(code: ErrorCode): void;
  /** Ends the response without an outcome (this server is stopping): the page attaches again. */
  close(): void;
}

/** How often a watcher asks the writer for what it lacks (also telling it someone still watches). */
const ASK_EVERY_MS = 1_000;
/** No word from the writer for this long: it is gone or the answer ended; the database tells which. */
const SILENCE_MS = 3_000;

/**
 * Watching an answer in progress, on whichever instance writes it (see answer-forwarding
 * for the bus protocol). The writer's own replies carry the text; the database is the
 * fallback when it says nothing: the text written so far while its lease runs, then the
 * settled answer (the sweep settles the turn of an instance that died).
 */
export class AnswerWatch {
  private readonly watching = new Set<() => void>();

  constructor(
    private readonly conversations: ConversationsRepo,
    private readonly messages: MessagesRepo,
    /** The branch shown, whose answer a page showing it follows. */
    private readonly branches: MessageBranches,
    private readonly bus: ChangeBus,
    private readonly clock: Clock,
    /** The longest an answer may take and then be settled; a watcher never waits longer. */
    private readonly longestWaitMs: number,
  ) {}

  /**
   * The answer streaming in the owner's conversation, or undefined; 404 for another's. With
   * several (versions answered at once), the one on the branch shown, which is what a page
   * reading that branch shows growing; else the newest.
   */
  async streamingAnswer(userId: number, conversationId: string): Promise<string | undefined> {
    const conversation = await this.conversations.findOwned(conversationId, userId);
    if (!conversation) throw notFound();
    const running = await this.messages.streamingIn(conversationId, this.clock.now().toISOString());
    if (running.length <= 1) return running[0];
    const tree = await this.branches.tree(conversationId);
    const shown = tree.shownBranch(conversation.active_message_id).map((m) => m.id);
    return shown.findLast((id) => running.includes(id)) ?? newestOf(tree, running);
  }

  /** Relays the answer to `out` until it ends, the watcher leaves (`gone`) or this server stops. */
  follow(conversationId: string, answerId: string, out: WatchSink, gone: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let have: string | undefined;
      let early: { offset: number; text: string }[] = [];
      let heardAt = Date.now();
      let checking = false;
      const startedAt = Date.now();

      const finish = (last: () => void) => {
        if (!this.watching.delete(stopHere)) return;
        unsubscribe();
        clearInterval(timer);
        gone.removeEventListener('abort', onGone);
        last();
        resolve();
      };
      const stopHere = () => finish(() => out.close());
      const onGone = () => finish(() => undefined);

      const ask = () => {
        const request: WatchRequest = { answer: answerId, from: have?.length ?? 0 };
        void this.bus.publish(WATCH_REQUEST, JSON.stringify(request));
      };
      // Keeps what continues the text sent so far: nothing lost, nothing twice.
      const take = (offset: number, text: string) => {
        if (have === undefined) {
          if (offset > 0) {
            early.push({ offset, text });
            return;
          }
          have = text;
          out.resume(answerId, text);
          const waiting = early;
          early = [];
          for (const p of waiting) take(p.offset, p.text);
          return;
        }
        if (offset > have.length) {
          ask();
          return;
        }
        const fresh = text.slice(have.length - offset);
        if (!fresh) return;
        have += fresh;
        out.delta(fresh);
      };
      const end = (piece: Exclude<AnswerPiece, { kind: 'text' }>) => {
        take(0, piece.kind === 'done' ? piece.data.content : piece.content);
        finish(() => (piece.kind === 'done' ? out.done(piece.data) : out.error(piece.code)));
      };
      const onPiece = (data: string | undefined) => {
        const piece = parsePiece(data);
        if (!piece) return;
        heardAt = Date.now();
        if (piece.kind === 'text') take(piece.offset, piece.text);
        else end(piece);
      };
      // The writer said nothing for a while: read the stored answer.
      const checkStored = async () => {
        const row = await this.messages.findOne(conversationId, answerId);
        if (!this.watching.has(stopHere)) return;
        if (!row) {
          // Refunded: stopped or failed before its first word; the question stays, unanswered.
          end({ kind: 'done', data: { content: '', messageId: answerId, tokens: 0, finish_reason: 'stopped' } });
        } else if (row.status === 'streaming') {
          take(0, row.content);
          if (Date.now() - startedAt > this.longestWaitMs) stopHere();
        } else if (row.status === 'error') {
          end({ kind: 'error', code: 'UPSTREAM_ERROR', content: row.content });
        } else {
          const finishReason: DoneData['finish_reason'] = row.status === 'stopped' ? 'stopped' : 'stop';
          // As the writer's own `done` would have said: with the passages the answer was given.
          const citations = parseCitations(row.citations);
          end({
            kind: 'done',
            data: {
              content: row.content,
              messageId: answerId,
              tokens: row.tokens,
              finish_reason: finishReason,
              ...(citations.length > 0 ? { citations } : {}),
            },
          });
        }
      };
      const tick = () => {
        ask();
        if (checking || Date.now() - heardAt < SILENCE_MS) return;
        checking = true;
        checkStored()
          .catch(() => undefined)
          .finally(() => {
            checking = false;
          });
      };

      this.watching.add(stopHere);
      // Listening before asking, so the reply cannot pass by unheard.
      const unsubscribe = this.bus.subscribe(piecesOf(answerId), onPiece);
      const timer = setInterval(tick, ASK_EVERY_MS);
      timer.unref();
      gone.addEventListener('abort', onGone, { once: true });
      if (gone.aborted) onGone();
      else ask();
    });
  }

  /** Ends every watcher's response (server shutdown), after the answers of this process were stored. */
  close(): void {
    for (const stop of [...this.watching]) stop();
  }
}

/** The newest (last stored) of these messages. */
function newestOf(tree: MessageTree<MessageNode>, ids: string[]): string | undefined {
  let newest: MessageNode | undefined;
  for (const id of ids) {
    const m = tree.get(id);
    if (m && (!newest || m.seq > newest.seq)) newest = m;
  }
  return newest?.id ?? ids.at(-1);
}

function parsePiece(data: string | undefined): AnswerPiece | undefined {
  try {
    const value = JSON.parse(data ?? '') as AnswerPiece;
    if (value.kind === 'text' && typeof value.offset === 'number' && typeof value.text === 'string') return value;
    if (value.kind === 'done' && typeof value.data?.content === 'string') return value;
    if (value.kind === 'error' && typeof value.content === 'string') return value;
  } catch {
    // Not a piece of ours.
  }
  return undefined;
}
