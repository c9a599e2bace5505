import type { z } from 'zod';
import { ADMIN_CALLS } from './admin.js';
import { API_KEY_CALLS } from './api-keys.js';
import { AUTH_CALLS } from './auth.js';
import { CAPS_CALLS } from './caps.js';
import { CHAT_CALLS } from './chat.js';
import { FILE_CALLS, KNOWLEDGE_CALLS } from './documents.js';
import { IDENTITY_CALLS } from './identity.js';
import { PROMPT_CALLS } from './prompts.js';
import { RETENTION_CALLS } from './retention.js';
import { SCIM_CALLS } from './scim.js';
import { SHARE_CALLS } from './sharing.js';
import { SITE_CALLS } from './site.js';

export * from './spec.js';
export { ADMIN_CALLS } from './admin.js';
export { CAPS_CALLS } from './caps.js';
export { API_KEY_CALLS } from './api-keys.js';
export { FILE_CALLS, KNOWLEDGE_CALLS } from './documents.js';
export { IDENTITY_CALLS } from './identity.js';
export { SHARE_CALLS } from './sharing.js';
export { PROMPT_CALLS } from './prompts.js';
export { RETENTION_CALLS } from './retention.js';
export { ADMIN_FILE_PATHS, AUTH_FILE_PATHS, CHAT_FILE_PATHS } from './file-paths.js';

/**
 * Every JSON call of the API, described once (one table per area). Streams and file
 * transfers (uploads, CSV, images) are plain HTTP, documented at their routes.
 */
export const API_CALLS = {
  ...AUTH_CALLS,
  ...CHAT_CALLS,
  ...SITE_CALLS,
  ...ADMIN_CALLS,
  ...SCIM_CALLS,
  ...IDENTITY_CALLS,
  ...FILE_CALLS,
  ...KNOWLEDGE_CALLS,
  ...SHARE_CALLS,
  ...PROMPT_CALLS,
  ...CAPS_CALLS,
  ...API_KEY_CALLS,
  ...RETENTION_CALLS,
} as const;

// A name used by two tables would silently replace one call with the other: the type check refuses it.
type Disjoint<A, B> = [Extract<keyof A, keyof B>] extends [never] ? true : Extract<keyof A, keyof B>;
export const CALL_NAMES_ARE_UNIQUE: [
  Disjoint<typeof AUTH_CALLS, typeof CHAT_CALLS>,
  Disjoint<typeof AUTH_CALLS, typeof SITE_CALLS>,
  Disjoint<typeof AUTH_CALLS, typeof ADMIN_CALLS>,
  Disjoint<typeof CHAT_CALLS, typeof SITE_CALLS>,
  Disjoint<typeof CHAT_CALLS, typeof ADMIN_CALLS>,
  Disjoint<typeof SITE_CALLS, typeof ADMIN_CALLS>,
  Disjoint<typeof SCIM_CALLS, typeof AUTH_CALLS & typeof CHAT_CALLS & typeof SITE_CALLS & typeof ADMIN_CALLS>,
  Disjoint<
    typeof IDENTITY_CALLS,
    typeof AUTH_CALLS & typeof CHAT_CALLS & typeof SITE_CALLS & typeof ADMIN_CALLS & typeof SCIM_CALLS
  >,
  Disjoint<
    typeof FILE_CALLS & typeof KNOWLEDGE_CALLS,
    typeof AUTH_CALLS &
      typeof CHAT_CALLS &
      typeof SITE_CALLS &
      typeof ADMIN_CALLS &
      typeof SCIM_CALLS &
      typeof IDENTITY_CALLS
  >,
  Disjoint<
    typeof SHARE_CALLS & typeof PROMPT_CALLS,
    typeof AUTH_CALLS &
      typeof CHAT_CALLS &
      typeof SITE_CALLS &
      typeof ADMIN_CALLS &
      typeof SCIM_CALLS &
      typeof IDENTITY_CALLS &
      typeof FILE_CALLS &
      typeof KNOWLEDGE_CALLS
  >,
  Disjoint<
    typeof CAPS_CALLS & typeof API_KEY_CALLS,
    typeof AUTH_CALLS &
      typeof CHAT_CALLS &
      typeof SITE_CALLS &
      typeof ADMIN_CALLS &
      typeof SCIM_CALLS &
      typeof IDENTITY_CALLS &
      typeof FILE_CALLS &
      typeof KNOWLEDGE_CALLS &
      typeof PROMPT_CALLS
  >,
  Disjoint<
    typeof RETENTION_CALLS,
    typeof AUTH_CALLS &
      typeof CHAT_CALLS &
      typeof SITE_CALLS &
      typeof ADMIN_CALLS &
      typeof SCIM_CALLS &
      typeof IDENTITY_CALLS &
      typeof FILE_CALLS &
      typeof KNOWLEDGE_CALLS &
      typeof SHARE_CALLS &
      typeof PROMPT_CALLS &
      typeof CAPS_CALLS &
      typeof API_KEY_CALLS
  >,
] = [true, true, true, true, true, true, true, true, true, true, true, true];

export type CallName = keyof typeof API_CALLS;
type Spec<N extends CallName> = (typeof API_CALLS)[N];
/** What a call answers with in `data`. */
export type CallResult<N extends CallName> = z.infer<Spec<N>['response']>;
/** The body a caller sends (before server-side defaults). */
export type CallBody<N extends CallName> = Spec<N> extends { body: z.ZodType } ? z.input<Spec<N>['body']> : never;
export type CallQuery<N extends CallName> =
  Spec<N> extends { query: z.ZodType } ? Partial<z.input<Spec<N>['query']>> : never;
/** Calls whose answer carries `pagination` beside `data`. */
export type PaginatedCallName = {
  [N in CallName]: Spec<N> extends { paginated: true } ? N : never;
}[CallName];
