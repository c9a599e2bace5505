import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useMyGroupAnnouncement, useSystemAnnouncement } from '../../api/use-announcements';
import { useAuthStore } from '../../stores/auth-store';
import {
  type AnnouncementNotice,
  newestMark,
  readSeenMark,
  toNotice,
  unreadNotices,
  writeSeenMark,
} from './announcement-seen';

/** Marks written here notify at once; the `storage` event brings those of the user's other tabs. */
const localListeners = new Set<() => void>();

function subscribeToMarks(listener: () => void): () => void {
  localListeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    localListeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The visible system and group announcements this user has not marked as read, and how to mark them. */
export function useAnnouncementNotices(): {
  unread: AnnouncementNotice[];
  isLoading: boolean;
  isError: boolean;
  markAllRead: () => void;
} {
  const userId = useAuthStore((s) => s.user?.id ?? null);
  const system = useSystemAnnouncement();
  const group = useMyGroupAnnouncement();
  const mark = useSyncExternalStore(subscribeToMarks, () => (userId === null ? null : readSeenMark(userId)));

  const unread = useMemo(() => {
    const notices = [toNotice('system', system.data, userId), toNotice('group', group.data, userId)].filter(
      (notice): notice is AnnouncementNotice => notice !== null,
    );
    return unreadNotices(notices, mark);
  }, [system.data, group.data, mark, userId]);

  const markAllRead = useCallback(() => {
    const next = newestMark(unread, mark);
    if (userId === null || !next) return;
    writeSeenMark(userId, next);
    localListeners.forEach((listener) => listener());
  }, [unread, mark, userId]);

  return {
    unread,
    isLoading: system.isLoading || group.isLoading,
    isError: system.isError && group.isError,
    markAllRead,
  };
}
