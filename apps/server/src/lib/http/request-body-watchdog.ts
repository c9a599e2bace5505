import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

export interface RequestBodyWatchdogOptions {
  /** A request body from which no byte arrives for this long ends its connection. */
  idleMs: number;
  /** From this long into a body on, it must have arrived at `minBytesPerSecond` on average. */
  rateGraceMs: number;
  /** The slowest average a body may arrive at once the grace period is over. */
  minBytesPerSecond: number;
  /** How often the bodies being received are looked at (the cut comes up to this much later). */
  checkEveryMs: number;
}

interface Watched {
  socket: Socket;
  bytesRead: number;
  lastProgress: number;
  /** Socket bytes read when the body began, and when that was. */
  startBytes: number;
  started: number;
  /** Time the server itself held the socket paused: not the client's. */
  pausedMs: number;
  lastSweep: number;
}

/** A request announces a body by its length or by chunked transfer encoding. */
const announcesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Closes the connection of a request whose body stops arriving, or crawls. Node's own
 * request timeout bounds the whole receipt (minutes, for a large upload on a slow link),
 * so a client sending a few bytes now and then would hold a socket that long; here a body
 * must keep moving (no pause of `idleMs`) and, past `rateGraceMs`, must have arrived at
 * `minBytesPerSecond` on average, so holding a socket costs a client real bytes. One sweep
 * looks at every body still being received, by the bytes read from its socket: a slow
 * upload above the rate is never cut, and nothing is watched once the body is complete,
 * so a long streamed answer is not either. A socket the server itself paused (its reader
 * is behind) counts as progressing, and the paused time does not count against the rate.
 */
export function watchRequestBodies(server: Server, options: RequestBodyWatchdogOptions): void {
  const { idleMs, rateGraceMs, minBytesPerSecond, checkEveryMs } = options;
  const receiving = new Map<IncomingMessage, Watched>();
  server.on('request', (req: IncomingMessage) => {
    if (req.complete || !announcesBody(req)) return;
    const now = Date.now();
    const bytesRead = req.socket.bytesRead;
    receiving.set(req, {
      socket: req.socket,
      bytesRead,
      lastProgress: now,
      startBytes: bytesRead,
      started: now,
      pausedMs: 0,
      lastSweep: now,
    });
  });

  const tooSlow = (watched: Watched, now: number): boolean => {
    const clientMs = now - watched.started - watched.pausedMs;
    if (clientMs < rateGraceMs) return false;
    return watched.socket.bytesRead - watched.startBytes < (minBytesPerSecond * clientMs) / 1000;
  };

  const sweep = () => {
    const now = Date.now();
    for (const [req, watched] of receiving) {
      const { socket } = watched;
      const sinceSweep = now - watched.lastSweep;
      watched.lastSweep = now;
      if (req.complete || socket.destroyed) {
        receiving.delete(req);
      } else if (socket.isPaused()) {
        watched.bytesRead = socket.bytesRead;
        watched.lastProgress = now;
        watched.pausedMs += sinceSweep;
      } else if (socket.bytesRead !== watched.bytesRead) {
        watched.bytesRead = socket.bytesRead;
        watched.lastProgress = now;
        if (tooSlow(watched, now)) close(req, socket);
      } else if (now - watched.lastProgress >= idleMs || tooSlow(watched, now)) {
        close(req, socket);
      }
    }
  };
  const close = (req: IncomingMessage, socket: Socket) => {
    receiving.delete(req);
    socket.destroy();
  };
  let timer: NodeJS.Timeout | undefined;
  server.on('listening', () => {
    clearInterval(timer);
    timer = setInterval(sweep, checkEveryMs).unref();
  });
  server.on('close', () => {
    clearInterval(timer);
    receiving.clear();
  });
}
