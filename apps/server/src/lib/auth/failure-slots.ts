import type { KvStore } from '../data/kv-store.js';

/**
 * A limit of `max` failures per subject in a sliding window, kept in the shared
 * key-value store (Redis when configured, so every instance counts together). Each try
 * takes one of `max` slots BEFORE it is checked, so simultaneous tries cannot slip past
 * the limit together; a failed try keeps its slot for the window, a success frees them all.
 */
export class FailureSlots {
  constructor(
    private readonly kv: KvStore,
    private readonly prefix: string,
    private readonly max: number,
    private readonly windowSeconds: number,
  ) {}

  private key(subject: string, slot: number): string {
    return `${this.prefix}:${subject}:${slot}`;
  }

  /** Takes a free slot for one try: its number, or undefined when every slot is taken. */
  async take(subject: string): Promise<number | undefined> {
    for (let slot = 0; slot < this.max; slot += 1) {
      if (await this.kv.setIfAbsent(this.key(subject, slot), this.windowSeconds)) return slot;
    }
    return undefined;
  }

  /** Gives a slot back: the try was no failure (it never got checked). */
  async release(subject: string, slot: number): Promise<void> {
    await this.kv.delete(this.key(subject, slot));
  }

  /** A success: the subject starts again with every slot free. */
  async clear(subject: string): Promise<void> {
    await Promise.all(Array.from({ length: this.max }, (_, slot) => this.kv.delete(this.key(subject, slot))));
  }

  /** Seconds until the first slot frees up (0 when one is free). */
  async secondsUntilFree(subject: string): Promise<number> {
    const left = await Promise.all(Array.from({ length: this.max }, (_, slot) => this.kv.ttl(this.key(subject, slot))));
    return Math.min(...left);
  }
}
