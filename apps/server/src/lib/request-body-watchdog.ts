import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

export interface RequestBodyWatchdogOptions {
  /** A request body from which no byte arrives for this long ends its connection. */
  idleMs: number;
  /** How often the bodies being received are looked at (the cut comes up to this much later). */
  checkEveryMs: number;
}

interface Watched {
  socket: Socket;
  bytesRead: number;
  lastProgress: number;
}

/** A request announces a body by its length or by chunked transfer encoding. */
const announcesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Closes the connection of a request whose body stops arriving. Node's own request
 * timeout bounds the whole receipt (minutes, for a large upload on a slow link), so a
 * client sending a few bytes and then nothing would hold a socket that long; here a body
 * must keep moving instead. One sweep looks at every body still being received, by the
 * bytes read from its socket: a slow upload that keeps progressing is never cut, and
 * nothing is watched once the body is complete, so a long streamed answer is not either.
 * A socket the server itself paused (its reader is behind) counts as progressing.
 */
export function watchRequestBodies(server: Server, { idleMs, checkEveryMs }: RequestBodyWatchdogOptions): void {
  const receiving = new Map<IncomingMessage, Watched>();
  server.on('request', (req: IncomingMessage) => {
    if (req.complete || !announcesBody(req)) return;
    receiving.set(req, { socket: req.socket, bytesRead: req.socket.bytesRead, lastProgress: Date.now() });
  });

  const sweep = () => {
    const now = Date.now();
    for (const [req, watched] of receiving) {
      const { socket } = watched;
      if (req.complete || socket.destroyed) {
        receiving.delete(req);
      } else if (socket.bytesRead !== watched.bytesRead || socket.isPaused()) {
        watched.bytesRead = socket.bytesRead;
        watched.lastProgress = now;
      } else if (now - watched.lastProgress >= idleMs) {
        receiving.delete(req);
        socket.destroy();
      }
    }
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
