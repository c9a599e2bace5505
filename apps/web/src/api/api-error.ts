/** Why a call failed, as far as the caller needs to know. */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'cancelled' | 'session' | 'format';

interface ApiErrorInit {
  kind: ApiErrorKind;
  status?: number;
  /** The stable error code from the envelope's `error` field. */
  code?: string;
  data?: Record<string, unknown>;
  /** Set when the client already showed a toast for this failure. */
  notified?: boolean;
}

/** Every failed API call rejects with this; `message` is the server's translated text when there is one. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly data: Record<string, unknown> | undefined;
  notified: boolean;

  constructor(message: string, init: ApiErrorInit) {
    super(message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.data = init.data;
    this.notified = init.notified ?? false;
  }

  /** Validation details of a 400 answer (`data.errors`), when present. */
  get validationErrors(): string[] {
    const errors = this.data?.errors;
    return Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [];
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
