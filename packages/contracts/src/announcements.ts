import { z } from 'zod';

/**
 * An announcement: the system one (super administrator) or a group's (its administrator).
 * Markdown; raw HTML inside it is sanitised on save and never rendered as HTML.
 * `visible` says whether it shows now: enabled, not empty, and inside its schedule.
 */
export const AnnouncementSchema = z.object({
  content: z.string(),
  enabled: z.boolean(),
  format: z.literal('markdown'),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  updated_by: z.number().nullable(),
  visible: z.boolean(),
  /** Set on a group's announcement. */
  group_id: z.number().nullable(),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

const Instant = z.iso.datetime({ offset: true, error: 'validation.schedule.invalid' }).nullable();

export const AnnouncementBodySchema = z
  .object({
    content: z.string({ error: 'validation.announcement.max' }).max(20_000, 'validation.announcement.max'),
    enabled: z.boolean().default(true),
    format: z.literal('markdown').default('markdown'),
    starts_at: Instant.optional(),
    ends_at: Instant.optional(),
  })
  .refine((b) => !b.starts_at || !b.ends_at || Date.parse(b.starts_at) < Date.parse(b.ends_at), {
    path: ['ends_at'],
    message: 'validation.schedule.order',
  });
export type AnnouncementBody = z.input<typeof AnnouncementBodySchema>;
