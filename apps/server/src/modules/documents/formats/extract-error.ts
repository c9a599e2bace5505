import type { DocumentErrorCode } from '@aiplatform/contracts';

/** Why a document could not be read: thrown by a format's reader, reported as the file's error code. */
export class ExtractError extends Error {
  constructor(
    readonly code: DocumentErrorCode,
    reason: string,
  ) {
    super(reason);
  }
}

export const unreadable = (reason: string) => new ExtractError('FILE_UNREADABLE', reason);
