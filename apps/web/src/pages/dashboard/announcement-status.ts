import type { Announcement, AnnouncementBody } from '@aiplatform/contracts';

/** Why an announcement does or does not show right now, for its editors. */
export type AnnouncementStatus = 'visible' | 'off' | 'empty' | 'scheduled' | 'ended';

export function announcementStatus(announcement: Announcement, now: number = Date.now()): AnnouncementStatus {
  if (announcement.visible) return 'visible';
  if (!announcement.content.trim()) return 'empty';
  if (!announcement.enabled) return 'off';
  if (announcement.starts_at && Date.parse(announcement.starts_at) > now) return 'scheduled';
  if (announcement.ends_at && Date.parse(announcement.ends_at) <= now) return 'ended';
  // The server said hidden for a reason the client cannot see (e.g. clocks apart).
  return 'off';
}

/** The editor's values: the schedule as instants (ms), or null for "no limit". */
export interface AnnouncementDraft {
  content: string;
  enabled: boolean;
  startsAt: number | null;
  endsAt: number | null;
}

export function draftOf(announcement: Announcement): AnnouncementDraft {
  const instant = (value: string | null) => (value && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : null);
  return {
    content: announcement.content,
    // Writing into an empty announcement usually means showing it: the editor starts switched on.
    enabled: announcement.content.trim() === '' ? true : announcement.enabled,
    startsAt: instant(announcement.starts_at),
    endsAt: instant(announcement.ends_at),
  };
}

export function bodyOf(draft: AnnouncementDraft): AnnouncementBody {
  const iso = (value: number | null) => (value === null ? null : new Date(value).toISOString());
  return {
    content: draft.content,
    enabled: draft.enabled,
    format: 'markdown',
    starts_at: iso(draft.startsAt),
    ends_at: iso(draft.endsAt),
  };
}
