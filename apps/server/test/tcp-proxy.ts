import net from 'node:net';
import { freePort } from './free-port.js';

/**
 * A TCP relay in front of a server, to cut a service off without touching it: `refuse`
 * closes every connection and the port (a database that is down), `swallow` accepts
 * connections and never answers (an unreachable host), `freeze` stalls the open ones,
 * `pass` relays again.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private mode: 'pass' | 'swallow' = 'pass';
  /** Writes held back while frozen. */
  private held: (() => void)[] | undefined;

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

  /** Copies bytes across, holding them (in order) while frozen. */
  private relay(from: net.Socket, to: net.Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (this.held) this.held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  }

  private listen(): Promise<void> {
    const server = net.createServer((client) => {
      this.track(client);
      if (this.mode === 'swallow') return;
      const upstream = net.connect(this.target.port, this.target.host);
      this.track(upstream);
      this.relay(client, upstream);
      this.relay(upstream, client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  /** Connections open through the relay (each counts its two ends). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Relays again (listening again if the port was closed). */
  async pass(): Promise<void> {
    this.mode = 'pass';
    if (!this.server) await this.listen();
  }

  /** Keeps every connection open but relays nothing on it until `thaw` (a stalled network). */
  freeze(): void {
    this.held ??= [];
  }

  thaw(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const write of held) write();
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
