import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../lib/data/db-errors.js';
import { AppError } from '../../lib/http/errors.js';

/** The site's address as the browser reaches it: PUBLIC_URL, else this request's scheme and host. */
export function publicBase(req: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${req.protocol}://${req.host}`;
}

/**
 * Where a failed browser sign-in lands: the sign-in page with the error's code, which the
 * page shows translated. Why a provider's answer was refused goes to the log for the
 * administrator, not to the page.
 */
export function toSignInPage(req: FastifyRequest, reply: FastifyReply, err: unknown, publicUrl: string | undefined) {
  let code: string;
  if (err instanceof AppError) {
    code = err.code;
    if (err.cause instanceof Error) req.log.warn({ code, reason: err.cause.message }, 'single sign-on refused');
  } else {
    code = isDatabaseUnavailable(err) ? 'SERVICE_UNAVAILABLE' : 'INTERNAL';
    req.log.warn({ err }, 'single sign-on failed');
  }
  return reply.header('cache-control', 'no-store').redirect(`${publicUrl ?? ''}/login?sso_error=${code}`, 302);
}

/**
 * Where a successful one lands: `/sso/complete` with the one-time code in the fragment (never
 * sent to any server, kept out of logs and Referer), and where to go next.
 */
export function toSsoComplete(reply: FastifyReply, code: string, redirect: string, publicUrl: string | undefined) {
  const fragment = new URLSearchParams({ code, redirect });
  return reply
    .header('cache-control', 'no-store')
    .redirect(`${publicUrl ?? ''}/sso/complete#${fragment.toString()}`, 302);
}

/** How a browser flow ended: a sign-in's exchange code and where to land, or a test sign-in's preview code. */
export type BrowserSignInEnd =
  { preview: false; code: string; redirect: string } | { preview: true; code: string; providerId: number };

/**
 * Where a finished flow lands: `/sso/complete` for a sign-in, the identity page with
 * `#preview=<code>&provider=<id>` for an administrator's test sign-in.
 */
export function toFlowEnd(reply: FastifyReply, end: BrowserSignInEnd, publicUrl: string | undefined) {
  if (!end.preview) return toSsoComplete(reply, end.code, end.redirect, publicUrl);
  const fragment = new URLSearchParams({ preview: end.code, provider: String(end.providerId) });
  return reply
    .header('cache-control', 'no-store')
    .redirect(`${publicUrl ?? ''}/admin/identity#${fragment.toString()}`, 302);
}
