/** One dispatched server-sent event: its type (default `message`) and its data lines joined by `\n`. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Incremental parser for a `text/event-stream` body (the WHATWG event-stream format).
 * Bytes may arrive split anywhere — inside a UTF-8 sequence, a line, or between the
 * `\r` and `\n` of a line break — so undecoded bytes and the unfinished line are kept
 * until the next chunk. Comment lines (`:` first) are skipped; `id` and `retry` are
 * irrelevant to a single POST answer and ignored.
 */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private eventType = '';
  private dataLines: string[] = [];
  private hasData = false;

  /** Feeds raw bytes; returns the events completed by them. */
  pushBytes(chunk: Uint8Array): SseMessage[] {
    return this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  /** Feeds decoded text; returns the events completed by it. */
  pushText(text: string): SseMessage[] {
    this.buffer += text;
    return this.drain(false);
  }

  /** Ends the stream. An event without its closing blank line is incomplete and dropped, as browsers do. */
  end(): SseMessage[] {
    this.buffer += this.decoder.decode();
    const events = this.drain(true);
    this.resetEvent();
    this.buffer = '';
    return events;
  }

  private drain(final: boolean): SseMessage[] {
    const events: SseMessage[] = [];
    const text = this.buffer;
    let start = 0;
    for (;;) {
      const lf = text.indexOf('\n', start);
      const cr = text.indexOf('\r', start);
      const at = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (at === -1) break;
      // A trailing `\r` may be the first half of `\r\n`; wait for the next chunk to know.
      if (text[at] === '\r' && at === text.length - 1 && !final) break;
      const line = text.slice(start, at);
      start = at + (text[at] === '\r' && text[at + 1] === '\n' ? 2 : 1);
      const event = this.readLine(line);
      if (event) events.push(event);
    }
    this.buffer = text.slice(start);
    if (final && this.buffer) {
      this.readLine(this.buffer);
      this.buffer = '';
    }
    return events;
  }

  private readLine(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') {
      this.dataLines.push(value);
      this.hasData = true;
    }
    return null;
  }

  private dispatch(): SseMessage | null {
    const event = this.hasData ? { event: this.eventType || 'message', data: this.dataLines.join('\n') } : null;
    this.resetEvent();
    return event;
  }

  private resetEvent(): void {
    this.eventType = '';
    this.dataLines = [];
    this.hasData = false;
  }
}
