import { useSyncExternalStore } from 'react';
import { capReachedData } from './cap-text';

type Refusal = NonNullable<ReturnType<typeof capReachedData>>;

/*
 * The last send a cap refused, kept outside React so the send runner (no component) can
 * record it and the composer show it until the cap resets or the person closes it.
 */
let current: Refusal | null = null;
let expiry: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
/** setTimeout's longest wait; a later reset (a monthly cap) is simply never cleared by time. */
const LONGEST_WAIT_MS = 2_147_483_647;

function publish(next: Refusal | null): void {
  current = next;
  clearTimeout(expiry);
  if (next) {
    const wait = new Date(next.resets_at).getTime() - Date.now();
    // Once the cap's window resets, the refusal no longer holds.
    if (wait < LONGEST_WAIT_MS) expiry = setTimeout(() => publish(null), Math.max(0, wait));
  }
  listeners.forEach((listener) => listener());
}

/** Records a CAP_REACHED refusal; returns false for any other failure. */
export function recordCapRefusal(code: string | undefined, data: Record<string, unknown> | undefined): boolean {
  const refusal = capReachedData(code, data);
  if (refusal) publish(refusal);
  return refusal !== undefined;
}

export function clearCapRefusal(): void {
  publish(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The refusal still in force (its window has not reset), or null. */
export function useCapRefusal(): Refusal | null {
  return useSyncExternalStore(subscribe, () => current);
}
