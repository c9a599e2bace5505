import { type Announcement, AnnouncementBodySchema, type AnnouncementBody } from '@aiplatform/contracts';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize, can } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { diff } from '../audit/redact.js';
import { announcementSnapshot, emptyAnnouncement, isVisible, toAnnouncement } from './announcement.presenter.js';
import { type AnnouncementScope, type AnnouncementsRepo, scopeKey } from './announcements.repo.js';
import { sanitizeMarkdown } from './markdown-sanitize.js';

/** Stored as UTC ISO text, so schedules compare as strings on both databases. */
const instant = (value: string | null | undefined) => (value ? iso(new Date(value)) : null);

/**
 * The system announcement (shown to everyone, edited by a super administrator) and one
 * per group (edited by whoever manages groups, or by that group's administrator).
 * Readers only ever see an announcement while it is visible: a draft or a scheduled
 * one is answered as empty, so its text cannot leak before its time.
 */
export class AnnouncementsService {
  constructor(private readonly d: { repo: AnnouncementsRepo; tx: AdminTransactions; clock: Clock }) {}

  /** GET /admin/announcement: any signed-in user; its editors get it whatever its state. */
  async system(actor: Actor): Promise<Announcement> {
    const row = await this.d.repo.find({ kind: 'system' });
    const now = iso(this.d.clock.now());
    if (can(actor, 'announcement.manage')) return row ? toAnnouncement(row, now) : emptyAnnouncement(null);
    return row && isVisible(row, now) ? toAnnouncement(row, now) : emptyAnnouncement(null);
  }

  async updateSystem(ctx: AdminContext, body: AnnouncementBody): Promise<Announcement> {
    authorize(ctx.actor, 'announcement.manage');
    return this.save(ctx, { kind: 'system' }, body, 'announcement.update');
  }

  /** GET /admin/user-groups/:id/announcement: for its editors, so always the stored state. */
  async group(actor: Actor, groupId: number): Promise<Announcement> {
    authorize(actor, 'group.announcement', { kind: 'group', id: groupId });
    if (!(await this.d.repo.groupExists(groupId))) throw new AppError('NOT_FOUND');
    const row = await this.d.repo.find({ kind: 'group', groupId });
    return row ? toAnnouncement(row, iso(this.d.clock.now())) : emptyAnnouncement(groupId);
  }

  async updateGroup(ctx: AdminContext, groupId: number, body: AnnouncementBody): Promise<Announcement> {
    authorize(ctx.actor, 'group.announcement', { kind: 'group', id: groupId });
    return this.save(ctx, { kind: 'group', groupId }, body, 'group.announcement.update');
  }

  /** GET /stats/my-group-announcement: the reader's group's announcement while it is visible. */
  async forMember(groupId: number | null): Promise<Announcement> {
    if (groupId === null) return emptyAnnouncement(null);
    const row = await this.d.repo.find({ kind: 'group', groupId });
    const now = iso(this.d.clock.now());
    return row && isVisible(row, now) ? toAnnouncement(row, now) : emptyAnnouncement(groupId);
  }

  private save(ctx: AdminContext, scope: AnnouncementScope, input: AnnouncementBody, action: string) {
    // The route has parsed the body already; parsing again applies the defaults for direct callers.
    const body = AnnouncementBodySchema.parse(input);
    const groupId = scope.kind === 'group' ? scope.groupId : null;
    return this.d.tx.run(ctx, async (trx, now) => {
      if (groupId !== null && !(await this.d.repo.groupExists(groupId, trx))) throw new AppError('NOT_FOUND');
      const before = await this.d.repo.lock(scope, trx);
      const row = await this.d.repo.save(
        {
          scope_key: scopeKey(scope),
          group_id: groupId,
          content: sanitizeMarkdown(body.content),
          enabled: body.enabled ? 1 : 0,
          format: 'markdown',
          starts_at: instant(body.starts_at),
          ends_at: instant(body.ends_at),
          updated_at: now,
          updated_by: ctx.actor.id,
        },
        trx,
      );
      const changes = diff(announcementSnapshot(before), announcementSnapshot(row));
      return {
        result: toAnnouncement(row, now),
        audit: {
          action,
          targetType: groupId === null ? 'announcement' : 'group',
          targetId: groupId ?? 'system',
          ...changes,
        },
      };
    });
  }
}
