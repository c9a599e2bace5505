import {
  type CreatePromptBody,
  PROMPT_LIMITS,
  type PromptListQuery,
  type PromptTemplate,
  type PromptVersion,
  type UpdatePromptBody,
} from '@aiplatform/contracts';
import type { Selectable } from 'kysely';
import type { PromptTemplatesTable } from '../../db/types.js';
import { AppError, InputError, notFound } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { can } from '../../policies/policy.js';
import { canChangePrompt, canReadPrompt, readsEveryGroupsPrompts } from '../../policies/prompts.js';
import type { AuditEntry } from '../audit/audit.service.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { diff } from '../audit/redact.js';
import { promptSnapshot, toPromptTemplate, toPromptVersion } from './prompt.presenter.js';
import type { PromptPlace, PromptsRepo } from './prompts.repo.js';

type TemplateRow = Selectable<PromptTemplatesTable>;

/** A shared template's change goes into the audit log; a personal one is nobody else's business. */
const audited = (row: TemplateRow, entry: AuditEntry): AuditEntry[] => (row.scope === 'personal' ? [] : [entry]);

const managesGroup = (actor: Actor, groupId: number) =>
  can(actor, 'prompt.group.manage', { kind: 'group', id: groupId });

/**
 * Prompt templates: personal, a group's and the system's. Reading follows the scope (see
 * policies/prompts.ts); one out of the caller's sight is not found, one they read but may
 * not change answers 403 to a change. Every edit keeps the text before it as a version.
 */
export class PromptsService {
  constructor(private readonly d: { repo: PromptsRepo; tx: AdminTransactions }) {}

  /** GET /prompts: the system's, the caller's group's (every group's for a super administrator) and their own. */
  async list(actor: Actor, query: PromptListQuery): Promise<PromptTemplate[]> {
    const reader = { userId: actor.id, groupId: actor.group_id, everyGroup: readsEveryGroupsPrompts(actor) };
    const rows = await this.d.repo.list(reader, { search: query.search || undefined, scope: query.scope });
    return rows.map((row) => toPromptTemplate(actor, row));
  }

  /**
   * POST /prompts. A group template goes to the caller's group, or to `group_id` for
   * whoever manages other groups; each place holds a limited number of templates.
   */
  async create(ctx: AdminContext, body: CreatePromptBody): Promise<PromptTemplate> {
    const { actor } = ctx;
    const place = this.placeFor(actor, body);
    return this.d.tx.run(ctx, async (trx, now) => {
      if (place.scope === 'group' && !(await this.d.repo.lockGroup(place.groupId, trx))) throw notFound();
      const max = place.scope === 'personal' ? PROMPT_LIMITS.personalPerUser : PROMPT_LIMITS.sharedPerScope;
      if ((await this.d.repo.countIn(place, trx)) >= max) throw new AppError('PROMPT_LIMIT_REACHED', { max });
      const id = await this.d.repo.insert(
        {
          title: body.title,
          content: body.content,
          scope: place.scope,
          owner_id: place.scope === 'personal' ? actor.id : null,
          group_id: place.scope === 'group' ? place.groupId : null,
          created_by: actor.id,
          updated_by: actor.id,
          created_at: now,
          updated_at: now,
        },
        trx,
      );
      const row = await this.d.repo.find(id, trx);
      if (!row) throw notFound();
      return {
        result: toPromptTemplate(actor, row),
        audit: audited(row, {
          action: 'prompt.create',
          targetType: 'prompt',
          targetId: id,
          after: promptSnapshot(row),
        }),
      };
    });
  }

  /** PUT /prompts/:id: the current text becomes a version and the new one replaces it. */
  async update(ctx: AdminContext, id: number, body: UpdatePromptBody): Promise<PromptTemplate> {
    return this.d.tx.run(ctx, async (trx, now) => {
      const before = this.changeable(ctx.actor, await this.d.repo.lock(id, trx));
      const unchanged = before.title === body.title && before.content === body.content;
      if (!unchanged) {
        const next = { title: body.title, content: body.content, updated_by: ctx.actor.id, updated_at: now };
        await this.d.repo.saveEdit(before, next, PROMPT_LIMITS.versionsKept, trx);
      }
      const row = await this.d.repo.find(id, trx);
      if (!row) throw notFound();
      const changes = diff(promptSnapshot(before), promptSnapshot(row));
      return {
        result: toPromptTemplate(ctx.actor, row),
        audit: unchanged
          ? []
          : audited(row, { action: 'prompt.update', targetType: 'prompt', targetId: id, ...changes }),
      };
    });
  }

  /** DELETE /prompts/:id: the template and its versions. */
  async remove(ctx: AdminContext, id: number): Promise<{ deleted: boolean }> {
    return this.d.tx.run(ctx, async (trx) => {
      const before = this.changeable(ctx.actor, await this.d.repo.lock(id, trx));
      const deleted = await this.d.repo.remove(id, trx);
      return {
        result: { deleted },
        audit: audited(before, {
          action: 'prompt.delete',
          targetType: 'prompt',
          targetId: id,
          before: promptSnapshot(before),
        }),
      };
    });
  }

  /** GET /prompts/:id/versions: for whoever reads the template. */
  async versions(actor: Actor, id: number): Promise<PromptVersion[]> {
    const row = await this.d.repo.find(id);
    if (!row || !canReadPrompt(actor, row)) throw notFound();
    return (await this.d.repo.versions(id)).map(toPromptVersion);
  }

  private changeable(actor: Actor, row: TemplateRow | undefined): TemplateRow {
    if (!row || !canReadPrompt(actor, row)) throw notFound();
    if (!canChangePrompt(actor, row)) throw new AppError('FORBIDDEN');
    return row;
  }

  /** Where a new template goes, once the caller may put it there. */
  private placeFor(actor: Actor, body: CreatePromptBody): PromptPlace {
    if (body.scope === 'personal') return { scope: 'personal', ownerId: actor.id };
    if (body.scope === 'system') {
      if (!can(actor, 'prompt.system.manage')) throw new AppError('FORBIDDEN');
      return { scope: 'system' };
    }
    const wanted = body.group_id ?? actor.group_id;
    if (wanted === null) throw new InputError(['validation.prompt.group']);
    if (!managesGroup(actor, wanted)) {
      // A group administrator hears nothing about other groups; a plain member is simply refused.
      if (actor.group_id !== null && managesGroup(actor, actor.group_id)) throw notFound();
      throw new AppError('FORBIDDEN');
    }
    return { scope: 'group', groupId: wanted };
  }
}
