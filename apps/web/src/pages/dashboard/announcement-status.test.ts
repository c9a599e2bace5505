import type { Announcement } from '@aiplatform/contracts';
import { AnnouncementBodySchema } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { announcementStatus, bodyOf, draftOf } from './announcement-status';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');

function announcement(patch: Partial<Announcement>): Announcement {
  return {
    content: 'Hello',
    enabled: true,
    format: 'markdown',
    starts_at: null,
    ends_at: null,
    updated_at: '2025-05-01T00:00:00.000Z',
    updated_by: 1,
    visible: false,
    group_id: null,
    ...patch,
  };
}

describe('announcement status', () => {
  it('names why an announcement is hidden', () => {
    expect(announcementStatus(announcement({ visible: true }), NOW)).toBe('visible');
    expect(announcementStatus(announcement({ content: ' ' }), NOW)).toBe('empty');
    expect(announcementStatus(announcement({ enabled: false }), NOW)).toBe('off');
    expect(announcementStatus(announcement({ starts_at: '2025-06-02T00:00:00.000Z' }), NOW)).toBe('scheduled');
    expect(announcementStatus(announcement({ ends_at: '2025-06-01T00:00:00.000Z' }), NOW)).toBe('ended');
  });

  it('round-trips the editor values into a body the shared schema accepts', () => {
    const draft = draftOf(
      announcement({ starts_at: '2025-06-02T00:00:00.000Z', ends_at: '2025-06-03T00:00:00.000Z', enabled: false }),
    );
    expect(draft).toEqual({
      content: 'Hello',
      enabled: false,
      startsAt: Date.parse('2025-06-02T00:00:00.000Z'),
      endsAt: Date.parse('2025-06-03T00:00:00.000Z'),
    });
    const body = bodyOf(draft);
    expect(body).toEqual({
      content: 'Hello',
      enabled: false,
      format: 'markdown',
      starts_at: '2025-06-02T00:00:00.000Z',
      ends_at: '2025-06-03T00:00:00.000Z',
    });
    expect(AnnouncementBodySchema.safeParse(body).success).toBe(true);
    expect(bodyOf({ ...draft, startsAt: null, endsAt: null })).toMatchObject({ starts_at: null, ends_at: null });
  });

  it('an empty announcement starts switched on; a written one keeps its switch', () => {
    expect(draftOf(announcement({ updated_at: null, enabled: false, content: '' })).enabled).toBe(true);
    expect(draftOf(announcement({ enabled: false, content: '' })).enabled).toBe(true);
    expect(draftOf(announcement({ enabled: false, content: 'Draft' })).enabled).toBe(false);
  });
});
