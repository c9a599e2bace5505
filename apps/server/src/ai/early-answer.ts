import { type UpstreamCall, type UpstreamEnd, streamAnswer } from './upstream.js';

/**
 * A streamed answer requested before its turn is ready to relay it (the credits are
 * still being reserved): the text that arrives meanwhile is held, then handed over in
 * order, so the upstream's time to first token overlaps the reservation instead of
 * following it. The caller aborts the call's signal if the turn is refused.
 */
export class EarlyAnswer {
  private held: string[] = [];
  private onDelta: ((text: string) => void) | undefined;
  private readonly end: Promise<UpstreamEnd>;

  constructor(call: UpstreamCall) {
    this.end = streamAnswer(call, (text) => {
      if (this.onDelta) this.onDelta(text);
      else this.held.push(text);
    });
  }

  /** Hands over the text held so far, then each piece as it comes; resolves with how the call ended. */
  relayTo(onDelta: (text: string) => void): Promise<UpstreamEnd> {
    const held = this.held;
    this.held = [];
    for (const text of held) onDelta(text);
    this.onDelta = onDelta;
    return this.end;
  }
}
