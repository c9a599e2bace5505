import { z } from 'zod';
import {
  CapsBodySchema,
  CapsConfigSchema,
  MyCapsSchema,
  NotificationListSchema,
  PersonalCapsBodySchema,
} from '../caps.js';
import type { CallSpec } from './spec.js';

/** Usage caps, their alerts, and the bell's notifications. */
export const CAPS_CALLS = {
  getUserCaps: { method: 'GET', path: '/admin/users/:id/caps', access: 'caps.manage', response: CapsConfigSchema },
  updateUserCaps: {
    method: 'PUT',
    path: '/admin/users/:id/caps',
    access: 'caps.manage',
    body: CapsBodySchema,
    response: CapsConfigSchema,
  },
  getGroupCaps: {
    method: 'GET',
    path: '/admin/user-groups/:id/caps',
    access: 'caps.manage',
    response: CapsConfigSchema,
  },
  updateGroupCaps: {
    method: 'PUT',
    path: '/admin/user-groups/:id/caps',
    access: 'caps.manage',
    body: CapsBodySchema,
    response: CapsConfigSchema,
  },
  getMyCaps: { method: 'GET', path: '/auth/caps', access: 'signedIn', response: MyCapsSchema },
  updateMyCaps: {
    method: 'PUT',
    path: '/auth/caps',
    access: 'signedIn',
    body: PersonalCapsBodySchema,
    response: MyCapsSchema,
  },
  listNotifications: {
    method: 'GET',
    path: '/notifications',
    access: 'signedIn',
    response: NotificationListSchema,
  },
  readNotification: {
    method: 'POST',
    path: '/notifications/:id/read',
    access: 'signedIn',
    response: z.object({ unread: z.number() }),
  },
} as const satisfies Record<string, CallSpec>;
