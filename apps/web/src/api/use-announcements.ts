import type { Announcement } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { fetchGroupAnnouncement, fetchMyGroupAnnouncement, fetchSystemAnnouncement } from './announcements';
import { queryKeys } from './query-keys';

/*
 * Announcements change rarely but should not wait for a reload: they are re-read when
 * the window regains focus (the app otherwise turns that off) and after a minute.
 */
const FRESHNESS = { staleTime: 60_000, refetchOnWindowFocus: true } as const;

/** The system announcement, as the dashboard, the chat and the header bell show it. */
export function useSystemAnnouncement() {
  return useQuery({ queryKey: queryKeys.systemAnnouncement, queryFn: fetchSystemAnnouncement, ...FRESHNESS });
}

/** The announcement of the signed-in user's group; null when there is none. */
export function useMyGroupAnnouncement() {
  return useQuery({ queryKey: queryKeys.myGroupAnnouncement, queryFn: fetchMyGroupAnnouncement, ...FRESHNESS });
}

/** A group's announcement for its administrator's editor (shown even when it is switched off). */
export function useGroupAnnouncement(groupId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.groupAnnouncement(groupId ?? 0),
    queryFn: () => fetchGroupAnnouncement(groupId ?? 0),
    enabled: enabled && groupId !== null,
  });
}

/** The text to show now, or null: only a visible announcement with some content counts. */
export function visibleContent(announcement: Announcement | null | undefined): string | null {
  if (!announcement?.visible) return null;
  const content = announcement.content.trim();
  return content ? content : null;
}
