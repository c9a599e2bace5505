import type { CallSpec } from './spec.js';

/** Conversations, messages, drafts, search and the chat's models and credits. */
export const CHAT_CALLS = {} as const satisfies Record<string, CallSpec>;
