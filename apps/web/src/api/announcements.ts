import type { Announcement, AnnouncementBody } from '@aiplatform/contracts';
import { call } from './call';
import { isApiError } from './api-error';

/** GET /admin/announcement: the system announcement (every signed-in user may read it). */
export function fetchSystemAnnouncement(): Promise<Announcement> {
  return call('getAnnouncement', { silent: true });
}

/**
 * GET /stats/my-group-announcement: the announcement of the user's own group. A user
 * without a group (or a group without one) has none: a 404 is an empty answer, not a failure.
 */
export async function fetchMyGroupAnnouncement(): Promise<Announcement | null> {
  try {
    return await call('myGroupAnnouncement', { silent: true });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/** GET /admin/user-groups/:id/announcement: a group's announcement as its administrators edit it. */
export function fetchGroupAnnouncement(groupId: number): Promise<Announcement> {
  return call('getGroupAnnouncement', { params: { id: groupId }, silent: true });
}

export function saveSystemAnnouncement(body: AnnouncementBody): Promise<Announcement> {
  return call('updateAnnouncement', { body });
}

export function saveGroupAnnouncement(groupId: number, body: AnnouncementBody): Promise<Announcement> {
  return call('updateGroupAnnouncement', { params: { id: groupId }, body });
}
