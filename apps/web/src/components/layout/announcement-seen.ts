import type { Announcement } from '@aiplatform/contracts';

const STORAGE_PREFIX = 'aiplatform-announcements-seen:';

export type AnnouncementKind = 'system' | 'group';

export interface AnnouncementNotice {
  kind: AnnouncementKind;
  content: string;
  updatedAt: string;
}

/** Where the "seen up to" mark of one user lives; every account on this browser has its own. */
export const seenStorageKey = (userId: number) => `${STORAGE_PREFIX}${userId}`;

/** The newest `updated_at` this user marked as read, or null when they never did. */
export function readSeenMark(userId: number, storage: Storage = localStorage): string | null {
  try {
    const value = storage.getItem(seenStorageKey(userId));
    return value && !Number.isNaN(Date.parse(value)) ? value : null;
  } catch {
    // Storage may be disabled (private mode, quota); everything then counts as unread.
    return null;
  }
}

export function writeSeenMark(userId: number, mark: string, storage: Storage = localStorage): void {
  try {
    storage.setItem(seenStorageKey(userId), mark);
  } catch (error) {
    console.warn('Could not remember the read announcements', error);
  }
}

/**
 * A visible announcement with content becomes a notice; anything else is not worth a
 * bell, and neither is what the reader wrote themselves.
 */
export function toNotice(
  kind: AnnouncementKind,
  announcement: Announcement | null | undefined,
  readerId: number | null = null,
): AnnouncementNotice | null {
  if (!announcement?.visible || !announcement.updated_at) return null;
  if (readerId !== null && announcement.updated_by === readerId) return null;
  const content = announcement.content.trim();
  return content ? { kind, content, updatedAt: announcement.updated_at } : null;
}

/**
 * Notices changed after the mark. The mark is the server's own `updated_at` of what was
 * read (not this device's clock), so a skewed clock neither hides nor repeats a notice.
 */
export function unreadNotices(notices: readonly AnnouncementNotice[], mark: string | null): AnnouncementNotice[] {
  const seen = mark ? Date.parse(mark) : Number.NEGATIVE_INFINITY;
  return notices.filter((notice) => Date.parse(notice.updatedAt) > seen);
}

/** The mark that makes every given notice read: the newest of their times. */
export function newestMark(notices: readonly AnnouncementNotice[], mark: string | null): string | null {
  let newest = mark;
  for (const notice of notices) {
    if (!newest || Date.parse(notice.updatedAt) > Date.parse(newest)) newest = notice.updatedAt;
  }
  return newest;
}

/** The first lines of a markdown text as plain text, for a short preview. */
export function previewText(markdown: string, maxLength = 140): string {
  const plain = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(' ');
  return plain.length > maxLength ? `${plain.slice(0, maxLength - 1)}…` : plain;
}
