import type { ServerResponse } from 'node:http';
import type { StreamEventName } from '@aiplatform/contracts';

export interface AnswerStreamOptions {
  heartbeatMs: number;
  /** Headers fastify already prepared for this reply (request id, security headers). */
  headers: Record<string, string | number | string[] | undefined>;
  /** Send `{delta}` only, without the growing `fullContent`. */
  deltaOnly: boolean;
  flushMs?: number;
  flushBytes?: number;
}

/**
 * Server-sent events on a hijacked response. Deltas are coalesced:
 * the first goes out at once (time to first token), later ones at most every `flushMs`
 * or when more than `flushBytes` are waiting, and never while the socket is congested,
 * so a slow reader costs memory linear in the answer, not a queue of tiny writes.
 */
export class AnswerStream {
  private readonly flushMs: number;
  private readonly flushBytes: number;
  private readonly heartbeat: NodeJS.Timeout;
  private pending: string[] = [];
  private pendingBytes = 0;
  private full = '';
  private lastFlush = 0;
  private timer: NodeJS.Timeout | undefined;
  private congested = false;
  private ended = false;
  private goneHandlers: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly opts: AnswerStreamOptions,
  ) {
    this.flushMs = opts.flushMs ?? 20;
    this.flushBytes = opts.flushBytes ?? 2048;
    const headers: Record<string, string | number | string[]> = {};
    for (const [k, v] of Object.entries(opts.headers)) if (v !== undefined && k !== 'content-length') headers[k] = v;
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), opts.heartbeatMs);
    res.on('drain', () => {
      this.congested = false;
      if (this.pendingBytes > 0) this.flush();
    });
    // 'close' before we ended the response means the client went away (stop or lost connection).
    res.on('close', () => {
      const early = !this.ended;
      this.stop();
      if (early) for (const fn of this.goneHandlers) fn();
    });
  }

  /** True while the client is still connected and the answer not finished. */
  get open(): boolean {
    return !this.ended && !this.res.destroyed;
  }

  onClientGone(fn: () => void): void {
    this.goneHandlers.push(fn);
  }

  /** Sends a named event at once, after any deltas still waiting. */
  event(name: StreamEventName, data: unknown): void {
    this.flush();
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  delta(text: string): void {
    if (!this.open) return;
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.congested || this.timer) return;
    const wait = this.lastFlush + this.flushMs - Date.now();
    if (wait <= 0 || this.pendingBytes > this.flushBytes) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** The text a resumed answer already had, so that `fullContent` goes on from it. */
  continueFrom(text: string): void {
    this.full = text;
  }

  /** Ends the response without a last event (the server stops; the client attaches again). */
  end(): void {
    if (!this.open) return;
    this.flush();
    this.ended = true;
    this.stop();
    this.res.end();
  }

  /** Sends the last event and ends the response. */
  finish(name: StreamEventName, data: unknown): void {
    if (!this.open) return;
    this.event(name, data);
    this.ended = true;
    this.stop();
    this.res.end();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingBytes === 0 || !this.open) return;
    const delta = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    this.lastFlush = Date.now();
    let data: { delta: string; fullContent?: string };
    if (this.opts.deltaOnly) data = { delta };
    else {
      this.full += delta;
      data = { delta, fullContent: this.full };
    }
    this.write(`event: message\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private write(chunk: string): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (!this.res.write(chunk)) this.congested = true;
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
