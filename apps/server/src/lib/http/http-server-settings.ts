import type { Server } from 'node:http';
import { capConnectionsPerAddress, exemptProxies } from './connection-cap.js';
import { watchRequestBodies } from './request-body-watchdog.js';

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
 * Time allowed for a request's headers, counted from the connection's opening or from
 * the first byte of the next request on a reused one (an idle keep-alive connection is
 * not counted, so this may be shorter than the keep-alive timeout). Short, so a client
 * that opens sockets and sends headers a byte at a time cannot hold them.
 */
export const HEADERS_TIMEOUT_MS = 15_000;

/**
 * Time allowed to *receive* a whole request (headers and body, e.g. an image upload on
 * a slow link). It does not bound the answer, so a streamed chat answer (bounded by
 * UPSTREAM_TIMEOUT_MS, up to an hour) is never cut by it; Node's own default, 5 min.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/**
 * A request body from which no byte arrives for this long ends its connection, well
 * before the request timeout above: a slow upload keeps moving, a stalled one is an attack.
 */
export const BODY_IDLE_TIMEOUT_MS = 15_000;

/**
 * A request body still arriving this long after it began must have come at
 * MIN_BODY_BYTES_PER_SECOND on average. The grace lets a connection warm up (TCP slow
 * start, a radio waking) before its pace is judged.
 */
export const BODY_RATE_GRACE_MS = 10_000;

/**
 * The slowest average a request body may arrive at after the grace period: 1 KiB/s
 * (8 kbit/s), below any working mobile link, even 2G (tens of kbit/s), so only a client
 * dribbling bytes on purpose is cut. Holding a socket for the whole request timeout then
 * costs a client some 300 KiB instead of a byte every few seconds.
 */
export const MIN_BODY_BYTES_PER_SECOND = 1024;

/**
 * How often the timeouts above are checked (Node's default is 30 s, which would let
 * a 15 s limit run to 45 s). The check only visits requests still being received.
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** Simultaneous connections one client address may hold (MAX_CONNECTIONS_PER_IP; 0 = no cap). */
export const DEFAULT_MAX_CONNECTIONS_PER_IP = 256;

export interface HttpTimeouts {
  keepAliveMs: number;
  headersMs: number;
  requestMs: number;
  bodyIdleMs: number;
  bodyRateGraceMs: number;
  minBodyBytesPerSecond: number;
  checkEveryMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  keepAliveMs: KEEP_ALIVE_TIMEOUT_MS,
  headersMs: HEADERS_TIMEOUT_MS,
  requestMs: REQUEST_TIMEOUT_MS,
  bodyIdleMs: BODY_IDLE_TIMEOUT_MS,
  bodyRateGraceMs: BODY_RATE_GRACE_MS,
  minBodyBytesPerSecond: MIN_BODY_BYTES_PER_SECOND,
  checkEveryMs: TIMEOUT_CHECK_INTERVAL_MS,
};

export interface HttpServerSettings {
  /** 0 turns the cap off. */
  maxConnectionsPerIp: number;
  /** The proxies trusted for forwarded addresses: their own connections are not capped. */
  trustProxy: boolean | number | string[];
  /** Tests scale these down; the server uses the defaults above. */
  timeouts?: HttpTimeouts;
}

/** Applies the timeouts and the per-address connection cap to the HTTP server under fastify (before it listens). */
export function applyHttpServerSettings(server: Server, settings: HttpServerSettings): void {
  const timeouts = settings.timeouts ?? HTTP_TIMEOUTS;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  // A createServer option in Node's documentation, but read from the server when it
  // starts listening, so it can be set here on the server fastify created.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = timeouts.checkEveryMs;
  watchRequestBodies(server, {
    idleMs: timeouts.bodyIdleMs,
    rateGraceMs: timeouts.bodyRateGraceMs,
    minBytesPerSecond: timeouts.minBodyBytesPerSecond,
    checkEveryMs: timeouts.checkEveryMs,
  });
  const exempt = exemptProxies(settings.trustProxy);
  if (settings.maxConnectionsPerIp > 0 && exempt)
    capConnectionsPerAddress(server, settings.maxConnectionsPerIp, exempt);
}
