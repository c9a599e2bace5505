import type { CapsBody, CapsConfig, MyCaps, NotificationList, PersonalCapsBody } from '@aiplatform/contracts';
import { call } from './call';

/** A cap's owner as the administration edits it: one user or one group. */
export type CapsSubject = { type: 'user' | 'group'; id: number };

/** GET /admin/users/:id/caps or /admin/user-groups/:id/caps */
export function fetchSubjectCaps(subject: CapsSubject): Promise<CapsConfig> {
  const params = { id: subject.id };
  return subject.type === 'user' ? call('getUserCaps', { params }) : call('getGroupCaps', { params });
}

/** PUT the subject's caps, alerts and webhook (replaces them); a 400 is left to the form. */
export function saveSubjectCaps(subject: CapsSubject, body: CapsBody): Promise<CapsConfig> {
  const params = { id: subject.id };
  return subject.type === 'user'
    ? call('updateUserCaps', { params, body, silent: true })
    : call('updateGroupCaps', { params, body, silent: true });
}

/** GET /auth/caps: the caps in force for the caller, with what they used. */
export function fetchMyCaps(): Promise<MyCaps> {
  return call('getMyCaps', { silent: true });
}

/** PUT /auth/caps: the caller's own (lower) caps; a 400 is left to the form. */
export function saveMyCaps(body: PersonalCapsBody): Promise<MyCaps> {
  return call('updateMyCaps', { body, silent: true });
}

/** GET /notifications: the bell's newest notifications and the unread count. */
export function fetchNotifications(): Promise<NotificationList> {
  return call('listNotifications', { silent: true });
}

export function markNotificationRead(id: number): Promise<{ unread: number }> {
  return call('readNotification', { params: { id } });
}
