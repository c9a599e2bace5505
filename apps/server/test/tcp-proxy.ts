import net from 'node:net';
import { freePort } from './free-port.js';

/**
 * A TCP relay in front of a server, to cut a service off without touching it: `refuse`
 * closes every connection and the port (a database that is down), `swallow` accepts
 * connections and never answers (an unreachable host), `pass` relays again.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private mode: 'pass' | 'swallow' = 'pass';

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(await freePort(), target);
    await proxy.listen();
    return proxy;
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private listen(): Promise<void> {
    const server = net.createServer((client) => {
      this.track(client);
      if (this.mode === 'swallow') return;
      const upstream = net.connect(this.target.port, this.target.host);
      this.track(upstream);
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  /** Relays again (listening again if the port was closed). */
  async pass(): Promise<void> {
    this.mode = 'pass';
    if (!this.server) await this.listen();
  }

  /** Accepts connections but relays nothing, and cuts those in progress. */
  swallow(): void {
    this.mode = 'swallow';
    this.cutAll();
  }

  /** Closes the port and every connection through it. */
  async refuse(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.cutAll();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    await this.refuse();
  }
}
