import type { ErrorCode, StreamEvent } from '@aiplatform/contracts';
import type { ChangeBus } from '../../lib/data/change-bus.js';

/**
 * The bus protocol between a page watching an answer (GET …/stream, on any instance) and
 * the instance writing it:
 * - the watcher asks on `WATCH_REQUEST` for the text of an answer from the length it has
 *   (0 at first), about once a second while it watches;
 * - the writer answers on the answer's own channel with the text from that offset, then
 *   publishes every later piece of text with its offset, and finally how the answer ended,
 *   for as long as a request came in the last few seconds.
 * Text only ever grows, so a watcher keeps what continues its own text and drops what it
 * already has; a piece starting past its end is a gap, repaired by asking again from there.
 */
export const WATCH_REQUEST = 'chat.answer-watch';
export const piecesOf = (answerId: string) => `chat.answer:${answerId}`;

export interface WatchRequest {
  answer: string;
  from: number;
}

type DoneData = Extract<StreamEvent, { event: 'done' }>['data'];

export type AnswerPiece =
  | { kind: 'text'; offset: number; text: string }
  | { kind: 'done'; data: DoneData }
  | { kind: 'error'; code: ErrorCode; content: string };

/** How long a writer keeps publishing after the last request: a few missed requests are no loss. */
const WATCHED_FOR_MS = 5_000;

interface Forwarded {
  text: string;
  /** How much of `text` watchers were given; later pieces start here. */
  published: number;
  /** 0 while nobody watches: the hot path then does one comparison per piece of text. */
  watchedUntil: number;
}

/** What the answer's writer calls as it goes; every call is free while nobody watches. */
export interface ForwardedAnswer {
  grew(text: string): void;
  done(data: DoneData): void;
  /** Ended in an error; the text so far is kept as the answer. */
  error(code: ErrorCode): void;
  close(): void;
}

/**
 * The writing side: the answers of this process, forwarded to the bus only while a
 * watcher asks for them. One bus listener for the whole process.
 */
export class AnswerForwarding {
  private readonly answers = new Map<string, Forwarded>();
  private readonly unsubscribe: () => void;

  constructor(private readonly bus: ChangeBus) {
    this.unsubscribe = bus.subscribe(WATCH_REQUEST, (data) => this.onRequest(data));
  }

  open(answerId: string): ForwardedAnswer {
    const f: Forwarded = { text: '', published: 0, watchedUntil: 0 };
    this.answers.set(answerId, f);
    let ended = false;
    const publish = (piece: AnswerPiece) => void this.bus.publish(piecesOf(answerId), JSON.stringify(piece));
    const end = (piece: AnswerPiece) => {
      if (ended) return;
      ended = true;
      this.answers.delete(answerId);
      if (watched(f)) publish(piece);
    };
    return {
      grew: (text) => {
        f.text = text;
        if (f.watchedUntil === 0) return;
        if (!watched(f)) {
          f.watchedUntil = 0;
          return;
        }
        publish({ kind: 'text', offset: f.published, text: text.slice(f.published) });
        f.published = text.length;
      },
      done: (data) => end({ kind: 'done', data }),
      error: (code) => end({ kind: 'error', code, content: f.text }),
      // Ended without an outcome (a failure of our own): watchers fall back to the stored answer.
      close: () => {
        ended = true;
        this.answers.delete(answerId);
      },
    };
  }

  close(): void {
    this.unsubscribe();
  }

  private onRequest(data: string | undefined): void {
    const request = parseRequest(data);
    const f = request && this.answers.get(request.answer);
    if (!f) return; // Another instance writes it, or it has ended.
    f.watchedUntil = Date.now() + WATCHED_FOR_MS;
    const from = Math.min(request.from, f.text.length);
    const piece: AnswerPiece = { kind: 'text', offset: from, text: f.text.slice(from) };
    void this.bus.publish(piecesOf(request.answer), JSON.stringify(piece));
    f.published = f.text.length;
  }
}

const watched = (f: Forwarded) => f.watchedUntil > Date.now();

function parseRequest(data: string | undefined): WatchRequest | undefined {
  try {
    const value = JSON.parse(data ?? '') as Partial<WatchRequest>;
    if (typeof value.answer === 'string' && typeof value.from === 'number') return value as WatchRequest;
  } catch {
    // Not a request of ours.
  }
  return undefined;
}
