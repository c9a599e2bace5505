import { z } from 'zod';
import { CreateModuleBodySchema, ModuleAuthUrlSchema } from '../admin/admin-modules.js';
import { PublicHomepageSchema } from '../admin/admin-settings.js';
import { AnnouncementSchema } from '../announcements.js';
import { UserModuleSchema } from '../modules.js';
import { PublicSystemConfigSchema } from '../settings.js';
import {
  HeartbeatSchema,
  MyStatsQuerySchema,
  RealtimeStatsSchema,
  UsageOverviewSchema,
  UserCreditsStatsSchema,
} from '../stats.js';
import type { CallSpec } from './spec.js';

/** What every visitor or member reads of the site: public configuration, the module menu, announcements, live statistics. */
export const SITE_CALLS = {
  // Before anyone signs in: the site's name, look and sign-in options, and the custom homepage.
  getPublicConfig: {
    method: 'GET',
    path: '/public/system-config',
    access: 'public',
    response: PublicSystemConfigSchema,
  },
  /** `html` is empty while the homepage is switched off. */
  getPublicHomepage: { method: 'GET', path: '/public/homepage', access: 'public', response: PublicHomepageSchema },

  // The module menu of the signed-in user's group, and the hand-off into one module.
  listMyModules: {
    method: 'GET',
    path: '/admin/modules/user-modules',
    access: 'signedIn',
    response: z.array(UserModuleSchema),
  },
  moduleAuthUrl: {
    method: 'GET',
    path: '/modules/:name/auth-url',
    access: 'signedIn',
    // The module's name as the administration accepts it: nothing else reaches the database.
    params: z.object({ name: CreateModuleBodySchema.shape.name }),
    response: ModuleAuthUrlSchema,
  },

  // The dashboard: the user's credits, live numbers (the site's, a group's or the user's own), presence, usage.
  myCreditsStats: { method: 'GET', path: '/stats/user-credits', access: 'signedIn', response: UserCreditsStatsSchema },
  realtimeStats: { method: 'GET', path: '/stats/realtime', access: 'signedIn', response: RealtimeStatsSchema },
  heartbeat: { method: 'POST', path: '/stats/heartbeat', access: 'signedIn', response: HeartbeatSchema },
  myUsage: {
    method: 'GET',
    path: '/stats/me',
    access: 'signedIn',
    query: MyStatsQuerySchema,
    response: UsageOverviewSchema,
  },
  /** The user's group's announcement while it is visible, else an empty one. */
  myGroupAnnouncement: {
    method: 'GET',
    path: '/stats/my-group-announcement',
    access: 'signedIn',
    response: AnnouncementSchema,
  },
} as const satisfies Record<string, CallSpec>;
