/** What to show for a failed call: a translation key, the server's own text, or nothing. */
export type ErrorNotice = { key: string } | { text: string } | null;

/**
 * The toast the client shows by itself for an HTTP failure. Statuses that
 * give `null` (400, 401, 404, 409 …) are left to the caller, who knows the context.
 */
export function noticeForStatus(status: number, serverMessage: string | undefined): ErrorNotice {
  const server = serverMessage?.trim() ? { text: serverMessage } : null;
  switch (status) {
    case 403:
      return server ?? { key: 'common:errors.forbidden' };
    case 429:
      // The server's text says how long to wait (a sign-in delay) or what to do instead.
      return server ?? { key: 'common:errors.tooManyRequests' };
    case 500:
      return server ?? { key: 'common:errors.internal' };
    case 502:
    case 503:
    case 504:
      return { key: 'common:errors.unavailable' };
    default:
      return status > 500 ? { key: 'common:errors.server' } : null;
  }
}
