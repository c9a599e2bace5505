import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';

/**
 * Raw TCP clients for tests of how the HTTP server treats misbehaving connections
 * (headers or bodies that never finish, too many sockets), which no HTTP client sends.
 */

export async function listenLocally(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

export interface RawClient {
  socket: net.Socket;
  /** Everything the server has sent so far. */
  received(): string;
  /** Milliseconds from the connection's opening to its closing by the server. */
  closed: Promise<number>;
  isClosed(): boolean;
}

export async function connectRaw(port: number): Promise<RawClient> {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  let closedFlag = false;
  const started = Date.now();
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
  });
  // A reset from the server is a close like any other here.
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      closedFlag = true;
      resolve(Date.now() - started);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed, isClosed: () => closedFlag };
}

/** Writes `data` a piece at a time, `everyMs` apart, stopping early if the socket closes. */
export async function trickle(socket: net.Socket, data: string, pieceSize: number, everyMs: number): Promise<void> {
  for (let i = 0; i < data.length; i += pieceSize) {
    if (socket.destroyed) return;
    socket.write(data.slice(i, i + pieceSize));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
