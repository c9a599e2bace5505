import type { ErrorCode, Message } from '@aiplatform/contracts';
import type { ModelMessage } from 'ai';
import type { EarlyAnswer } from '../../ai/early-answer.js';
import type { ConversationRow } from '../../db/types.js';
import type { CallableModel } from '../models/models.service.js';
import type { ForwardedAnswer } from './answer-forwarding.js';
import type { TurnRef } from './turn-accounting.js';

/** A paid-for question waiting for its answer: everything checked, credits reserved, rows written. */
export interface Turn extends TurnRef {
  conversation: ConversationRow;
  model: CallableModel;
  userMessage: Message;
  creditsRemaining: number;
  system: string | undefined;
  messages: ModelMessage[];
  promptText: string;
  /** The model writing the conversation's title, on its first turn when the setting asks for it. */
  titling?: Promise<void>;
  /** The streamed answer, when it was asked for while the credits were reserved. */
  early?: EarlyAnswer;
  /** Ends listening for stop calls (begun as soon as the answer row was written). */
  stopListening: () => void;
}

/** Where a streamed answer goes (the SSE relay). */
export interface TurnSink {
  delta(text: string): void;
  done(data: {
    content: string;
    messageId: string;
    tokens: number;
    finish_reason: 'stop' | 'length' | 'stopped';
  }): void;
  error(code: ErrorCode): void;
}

export /** The client's sink, also telling watchers how the answer ended (its text as stored). */
function forwardedSink(sink: TurnSink, forward: ForwardedAnswer): TurnSink {
  return {
    delta: (t) => sink.delta(t),
    done: (data) => {
      sink.done(data);
      forward.done(data);
    },
    error: (code) => {
      sink.error(code);
      forward.error(code);
    },
  };
}
