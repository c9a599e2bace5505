import { LIMITS } from './limits.js';

/**
 * What one account may store, so that nobody (by mistake or on purpose) fills the
 * database or the upload volume. Every quota is checked by the server and refused with
 * a translated message; the length limits are those of the request schemas.
 *
 * Worst case for one account: 5,000 conversations × (20,000-character system prompt +
 * 100,000-character draft) of text, 500 MB of images, reached no faster than 20
 * conversations a minute.
 */
export const QUOTAS = {
  /** Conversations one account may keep (409 CONVERSATION_LIMIT_REACHED beyond it). */
  conversationsPerUser: 5_000,
  /**
   * Answers one account may have being written at once, across its conversations (429
   * TOO_MANY_ANSWERS beyond it): a closed connection does not stop an answer, so without it
   * sends opened and closed at once would leave any number running. A few tabs stay below it.
   */
  answersInProgressPerUser: 5,
  /** New conversations per account per minute (429 TOO_MANY_REQUESTS beyond it). */
  conversationsPerMinute: 20,
  /** Characters of a conversation's system prompt (400 VALIDATION_FAILED beyond it). */
  systemPromptChars: LIMITS.systemPromptMax,
  /** Characters of a saved draft: as long as the message it will become. */
  draftChars: LIMITS.messageMax,
  /** Characters of one message sent (400 VALIDATION_FAILED beyond it). */
  messageChars: LIMITS.messageMax,
  /** Bytes of one uploaded chat image (413 FILE_TOO_LARGE beyond it). */
  imageBytes: LIMITS.imageMaxBytes,
  /** Bytes of all the chat images an account has stored (413 UPLOAD_QUOTA_EXCEEDED beyond it). */
  uploadBytesPerUser: 500 * 1024 * 1024,
} as const;
