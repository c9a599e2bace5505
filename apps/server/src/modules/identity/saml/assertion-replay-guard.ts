/**
 * Each assertion is accepted once: a Response captured in transit, from a browser's history
 * or a log must not sign anyone in again. The answer has to hold across every instance, so
 * the real guard is the database (`saml-replay.repo.ts`).
 */
export interface AssertionReplayGuard {
  /** True the first time this provider's assertion ID is seen; false for a replay. Kept until `expiresAt`. */
  firstUse(providerId: number, assertionId: string, expiresAt: Date): Promise<boolean>;
}

/** For tests and tools that run without a database: one process's memory. */
export class MemoryAssertionReplayGuard implements AssertionReplayGuard {
  private readonly seen = new Set<string>();
  firstUse(providerId: number, assertionId: string): Promise<boolean> {
    const key = `${providerId}\u0000${assertionId}`;
    if (this.seen.has(key)) return Promise.resolve(false);
    this.seen.add(key);
    return Promise.resolve(true);
  }
}
