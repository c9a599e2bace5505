import { ManualClock } from '../src/lib/runtime/clock.js';

/**
 * A clock that moves only when told, so waits of a second can be checked to the millisecond
 * however long the machine takes between two requests.
 */
export class FrozenClock extends ManualClock {
  private at = Date.now();
  override now(): Date {
    return new Date(this.at);
  }
  override advance(ms: number): void {
    this.at += ms;
  }
}
