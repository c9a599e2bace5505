import type { Citation, ErrorCode, Message } from '@aiplatform/contracts';
import type { ModelMessage } from 'ai';
import type { EarlyAnswer } from '../../ai/early-answer.js';
import type { ConversationRow } from '../../db/types.js';
import type { CallableModel } from '../models/models.service.js';
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
  /** The document passages the answer is given, stored with it and told in `done`. */
  citations: Citation[];
}

/** Where a streamed answer goes (the SSE relay; see `AnswerRelay`). */
export interface TurnSink {
  delta(text: string): void;
  done(data: {
    content: string;
    messageId: string;
    tokens: number;
    finish_reason: 'stop' | 'length' | 'stopped';
    citations?: Citation[];
  }): void;
  error(code: ErrorCode): void;
}
