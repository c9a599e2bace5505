import type { Announcement } from '@aiplatform/contracts';
import type { AnnouncementRow } from '../../db/types.js';

/**
 * Shown now: switched on, not empty, and inside its schedule (a start is inclusive, an
 * end exclusive). Instants are stored as UTC ISO strings, so they compare as text.
 */
export function isVisible(
  row: Pick<AnnouncementRow, 'enabled' | 'content' | 'starts_at' | 'ends_at'>,
  now: string,
): boolean {
  if (!row.enabled || row.content.trim() === '') return false;
  if (row.starts_at !== null && now < row.starts_at) return false;
  if (row.ends_at !== null && now >= row.ends_at) return false;
  return true;
}

export function toAnnouncement(row: AnnouncementRow, now: string): Announcement {
  return {
    content: row.content,
    enabled: row.enabled === 1,
    format: 'markdown',
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
    visible: isVisible(row, now),
    group_id: row.group_id,
  };
}

/** What a reader gets when there is nothing to show: no trace of a draft or a schedule. */
export function emptyAnnouncement(groupId: number | null): Announcement {
  return {
    content: '',
    enabled: false,
    format: 'markdown',
    starts_at: null,
    ends_at: null,
    updated_at: null,
    updated_by: null,
    visible: false,
    group_id: groupId,
  };
}

/** The state an audit row records (no ids or bookkeeping). */
export function announcementSnapshot(row: AnnouncementRow | undefined): Record<string, unknown> {
  if (!row) return {};
  return {
    content: row.content,
    enabled: row.enabled === 1,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
  };
}
