import { isApiError } from '../../api/api-error';
import { toast } from '../../api/notify';

/**
 * Error codes ending an answer whose text, as shown, was not stored as such: another server
 * settled the turn first (`ANSWER_ENDED_ELSEWHERE`: the stored text may be shorter), or the
 * database was away (`SERVICE_UNAVAILABLE`: the server keeps what it had written so far).
 */
const NOT_STORED = new Set(['ANSWER_ENDED_ELSEWHERE', 'SERVICE_UNAVAILABLE']);

/** Whether the server said the answer shown is not the one stored. */
export function answerNotStored(error: unknown): boolean {
  return isApiError(error) && error.code !== undefined && NOT_STORED.has(error.code);
}

/**
 * Says why the answer may read differently once the conversation is read back (the caller
 * reads it back, so the stored text replaces the one shown). Other errors stay quiet here:
 * the answer is marked interrupted as before.
 */
export function reportNotStored(error: unknown): void {
  if (isApiError(error) && answerNotStored(error)) toast('warning', error.message);
}
