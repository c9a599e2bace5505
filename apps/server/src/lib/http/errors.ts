import { ERROR_STATUS, type ErrorCode } from '@aiplatform/contracts';

/**
 * A failure the client should see: a stable code, translation parameters and optional
 * data. The error handler turns it into the envelope; nothing else formats errors.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly data?: Record<string, unknown>,
    cause?: unknown,
  ) {
    super(code, cause === undefined ? undefined : { cause });
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = () => new AppError('NOT_FOUND');

/**
 * Bad input found by a service rather than by the schema (a group that does not exist,
 * a role the caller may not grant): answered like a schema failure, each key translated
 * into `data.errors`.
 */
export class InputError extends AppError {
  constructor(readonly messageKeys: readonly string[]) {
    super('VALIDATION_FAILED');
  }
}
