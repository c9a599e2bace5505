import type { Server } from 'node:http';

/**
 * Pending connections the kernel queues while the event loop is busy (the `listen`
 * backlog). Node's default of 511 drops or resets connections when a burst (a class
 * opening the chat at once, a reconnect storm after a proxy restart) arrives during a
 * long tick; the kernel still caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 2048;

/**
 * Idle keep-alive connections stay open this long: longer than the idle timeout of
 * the usual reverse proxies and load balancers (60 s), so the proxy always closes an
 * idle connection first and never sends a request on one we are closing (a 502).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Time allowed for a request's headers. Must exceed the keep-alive timeout: Node counts
 * it from the start of the connection's wait for the next request, and a shorter value
 * would end reused connections before the keep-alive timeout does.
 */
export const HEADERS_TIMEOUT_MS = KEEP_ALIVE_TIMEOUT_MS + 1_000;

/**
 * Time allowed to *receive* a whole request (headers and body, e.g. an image upload on
 * a slow link). It does not bound the answer, so a streamed chat answer (bounded by
 * UPSTREAM_TIMEOUT_MS, up to an hour) is never cut by it; Node's own default, 5 min.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/** Applies the timeouts above to the HTTP server under fastify (before it listens). */
export function applyHttpServerSettings(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
}
