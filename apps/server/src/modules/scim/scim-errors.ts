import type { FastifyRequest } from 'fastify';
import { AppError, InputError } from '../../lib/http/errors.js';
import { translate } from '../../lib/runtime/i18n.js';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The `scimType` values of RFC 7644 §3.12 this server answers with. */
export type ScimType =
  'invalidFilter' | 'invalidPath' | 'invalidSyntax' | 'invalidValue' | 'uniqueness' | 'mutability' | 'noTarget';

/** A refusal in SCIM's own terms: the identity provider reads `status` and `scimType`, people read `detail`. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');

const UNIQUENESS = new Set(['CONFLICT_EMAIL', 'CONFLICT_USERNAME', 'CONFLICT_PHONE', 'CONFLICT_GROUP_NAME']);

/** Any error thrown while serving SCIM, as the SCIM error schema says it (RFC 7644 §3.12). */
export function scimErrorBody(req: FastifyRequest, err: unknown): { status: number; body: Record<string, unknown> } {
  const e = toScimError(req, err);
  const body = {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(e.status),
    ...(e.scimType ? { scimType: e.scimType } : {}),
    detail: e.detail,
  };
  return { status: e.status, body };
}

function toScimError(req: FastifyRequest, err: unknown): ScimError {
  if (err instanceof ScimError) return err;
  const lang = req.lang;
  if (err instanceof InputError) {
    return invalidValue(err.messageKeys.map((key) => translate(lang, key)).join('; '));
  }
  if (err instanceof AppError) {
    const detail = translate(lang, `errors.${err.code}`, err.params);
    if (UNIQUENESS.has(err.code)) return new ScimError(409, detail, 'uniqueness');
    if (err.code === 'NOT_FOUND') return new ScimError(404, detail, 'noTarget');
    if (err.code === 'SELF_ACTION_NOT_ALLOWED') return new ScimError(403, detail);
    return new ScimError(err.status, detail);
  }
  // A body that is not JSON, or too large: fastify's own errors carry their status.
  const status = (err as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ScimError(status, (err as Error).message, status === 400 ? 'invalidSyntax' : undefined);
  }
  req.log.error({ err }, 'SCIM request failed');
  return new ScimError(500, 'Internal server error');
}
