/** The `type` OpenAI's clients read from an error. */
export type V1ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'insufficient_quota'
  | 'api_error';

/**
 * A refusal of a `/v1` request, answered in OpenAI's error shape
 * `{ error: { message, type, code } }` so the official clients raise their usual errors.
 * `message` is a `server.v1.*` i18n key, translated when the answer is written.
 */
export class V1Error extends Error {
  constructor(
    readonly status: number,
    readonly type: V1ErrorType,
    readonly code: string,
    message: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, params?: Record<string, string | number>) =>
  new V1Error(400, 'invalid_request_error', 'invalid_request_error', message, params);

export const modelNotFound = (model: string) =>
  new V1Error(404, 'invalid_request_error', 'model_not_found', 'server.v1.modelNotFound', { model });

export const modelNotAllowed = (model: string) =>
  new V1Error(403, 'permission_error', 'model_not_allowed', 'server.v1.modelNotAllowed', { model });

/** Why a request could not be paid for: the balance, expired credits, the key's limit or a cap. */
export const insufficientQuota = (message: string, params?: Record<string, string | number>) =>
  new V1Error(429, 'insufficient_quota', 'insufficient_quota', message, params);

export const upstreamFailed = () => new V1Error(502, 'api_error', 'upstream_error', 'server.v1.upstreamError');
