import type { CallSpec } from './spec.js';

/** What every visitor or member reads of the site: public configuration, the module menu, announcements, live statistics. */
export const SITE_CALLS = {} as const satisfies Record<string, CallSpec>;
