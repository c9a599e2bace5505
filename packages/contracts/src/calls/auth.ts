import type { CallSpec } from './spec.js';

/** Signing in, registration, the session and the signed-in account's own profile. */
export const AUTH_CALLS = {} as const satisfies Record<string, CallSpec>;
