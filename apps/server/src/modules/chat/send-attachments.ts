import { DOCUMENT_LIMITS, type ErrorCode, MAX_IMAGES_PER_MESSAGE } from '@aiplatform/contracts';
import { AppError, InputError } from '../../lib/http/errors.js';
import type { QuestionFile } from './message-branches.js';

const isErrorCode = (code: string | null): code is ErrorCode =>
  code === 'FILE_UNREADABLE' || code === 'FILE_ENCRYPTED' || code === 'FILE_TOO_LARGE';

/**
 * A step of a send: the rules on a new question's files (the sender's own: others' were
 * already not found), all checked before anything is
 * charged. Images and documents each have their own limit (more are refused by name, never
 * cut); images need a model that reads them, documents do not; a document still being
 * extracted is refused with FILE_NOT_READY (the composer waits for it), one whose
 * extraction failed with the reason it failed.
 */
export function checkSentFiles(files: readonly QuestionFile[], vision: boolean): void {
  const images = files.filter((f) => f.kind === 'image');
  const documents = files.filter((f) => f.kind === 'document');
  if (images.length > MAX_IMAGES_PER_MESSAGE || documents.length > DOCUMENT_LIMITS.maxDocumentsPerMessage) {
    throw new InputError(['validation.file.tooMany']);
  }
  if (images.length > 0 && !vision) throw new AppError('MODEL_NO_IMAGE');
  for (const d of documents) {
    if (d.status === 'processing') throw new AppError('FILE_NOT_READY');
    if (d.status === 'failed') throw new AppError(isErrorCode(d.error_code) ? d.error_code : 'FILE_UNREADABLE');
  }
}
