import { type Language, type UserImportReport, scopeOf } from '@aiplatform/contracts';
import { AppError } from '../../lib/http/errors.js';
import { translate } from '../../lib/runtime/i18n.js';
import { hashPassword } from '../../lib/auth/passwords.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize, can } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { conflictFromDbError } from './identity.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { insertAccount } from './account-creation.js';
import { hasPool, mayGrantOpeningCredits, openingCreditsOf } from './opening-credits.js';
import { type ParsedRow, parseUserCsv } from './user-csv-import.js';
import { type UsersRepo, isRowId } from './users.repo.js';

interface ImportDefaults {
  groupId: number;
  credits: number;
}

/**
 * CSV import of users: every row is checked before anything is written; a dry run
 * stops at the report, a real run writes all rows in one transaction or none.
 */
export class UserImportService {
  constructor(
    private readonly d: {
      users: UsersRepo;
      groups: GroupsRepo;
      settings: SettingsService;
      tx: AdminTransactions;
      /** Told after the import drew opening credits from a group's pool (the low-pool email). */
      onPoolChanged?: (groupId: number) => void;
    },
  ) {}

  async import(ctx: AdminContext, file: Buffer, dryRun: boolean, lang: Language): Promise<UserImportReport> {
    authorize(ctx.actor, 'user.import');
    const rows = parseUserCsv(file, lang);
    const settings = await this.d.settings.getSettings();
    const defaults = { groupId: settings.user.default_group_id, credits: settings.user.default_credits };
    await this.checkRows(ctx, rows, defaults, lang);
    const errors = rows.filter((r) => r.errors.length > 0).map((r) => ({ row: r.row, errors: r.errors }));
    const report = { dry_run: dryRun, total: rows.length, valid: rows.length - errors.length, created: 0, errors };
    if (dryRun) return report;
    if (errors.length > 0) throw new AppError('CSV_INVALID', {}, { ...report });

    const prepared = await Promise.all(
      rows.map(async (r) => ({ body: r.body!, passwordHash: await hashPassword(r.body!.password) })),
    );
    // Every target group locked up front in id order: two imports naming the same
    // groups in different row orders queue up instead of deadlocking.
    const groupIds = prepared.map(({ body }) => this.groupFor(ctx, body.group_id, defaults.groupId));
    const targets = [...new Set(groupIds)].sort((a, b) => (a ?? 0) - (b ?? 0));
    try {
      const done = await this.d.tx.run(ctx, async (trx, now) => {
        for (const id of targets) {
          if (id !== null) await this.d.groups.lock(id, trx, now);
        }
        const audit = [];
        for (const { body, passwordHash } of prepared) {
          const id = await insertAccount(trx, this.d, {
            email: body.email,
            username: body.username,
            phone: body.phone ?? null,
            passwordHash,
            role: body.role ?? 'user',
            groupId: this.groupFor(ctx, body.group_id, defaults.groupId),
            credits: body.credits_quota ?? defaults.credits,
            siteMayGrant: mayGrantOpeningCredits(ctx.actor),
            tokens: settings.user.default_tokens,
            remark: body.remark ?? null,
            operatorId: ctx.actor.id,
            grantDescription: 'server.ledger.adminCreateGrant',
            now,
          });
          const { password: _omitted, ...after } = body;
          audit.push({ action: 'user.import', targetType: 'user', targetId: id, after: { ...after, id } });
        }
        return { result: { ...report, created: prepared.length }, audit };
      });
      for (const id of targets) if (id !== null) this.d.onPoolChanged?.(id);
      return done;
    } catch (err) {
      // A concurrent sign-up took an identity between the check and the write.
      throw conflictFromDbError(err) ?? err;
    }
  }

  private groupFor(ctx: AdminContext, requested: number | undefined, fallback: number): number | null {
    return scopeOf(ctx.actor.permissions, 'user.import') === 'all' ? (requested ?? fallback) : ctx.actor.group_id;
  }

  /** Adds to each row what only the whole file and the database can tell. */
  private async checkRows(ctx: AdminContext, rows: ParsedRow[], defaults: ImportDefaults, lang: Language) {
    const fallbackGroup = defaults.groupId;
    const seen = {
      email: new Map<string, number>(),
      username: new Map<string, number>(),
      phone: new Map<string, number>(),
    };
    /** Per group: the rows joining it and the opening credits they ask for. */
    const joining = new Map<number, ParsedRow[]>();
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
    for (const r of rows) {
      const b = r.body;
      if (!b) continue;
      const keys = { email: b.email, username: b.username.toLowerCase(), phone: b.phone ?? null };
      for (const field of ['email', 'username', 'phone'] as const) {
        const value = keys[field];
        if (!value) continue;
        const first = seen[field].get(value);
        if (first !== undefined) r.errors.push(t('server.csv.duplicate', { field, row: first }));
        else seen[field].set(value, r.row);
      }
      if (await this.d.users.findByEmail(b.email)) r.errors.push(t('errors.CONFLICT_EMAIL'));
      if (await this.d.users.findByUsername(b.username)) r.errors.push(t('errors.CONFLICT_USERNAME'));
      if (b.phone && (await this.d.users.findByPhone(b.phone))) r.errors.push(t('errors.CONFLICT_PHONE'));
      if ((b.role ?? 'user') !== 'user' && !can(ctx.actor, 'user.role')) r.errors.push(t('server.csv.roleNotAllowed'));
      if (b.credits_quota !== undefined && !can(ctx.actor, 'credits.adjust'))
        r.errors.push(t('server.csv.creditsNotAllowed'));
      const everywhere = scopeOf(ctx.actor.permissions, 'user.import') === 'all';
      if (!everywhere && b.group_id !== undefined && b.group_id !== ctx.actor.group_id)
        r.errors.push(t('server.csv.groupNotAllowed'));
      const groupId = this.groupFor(ctx, b.group_id, fallbackGroup);
      if (groupId === null || !isRowId(groupId) || !(await this.d.groups.findById(groupId)))
        r.errors.push(t('validation.group.notFound'));
      else joining.set(groupId, [...(joining.get(groupId) ?? []), r]);
    }
    await this.checkGroups(joining, ctx, defaults.credits, t);
  }

  /** Member limits and pools: what all the rows joining one group need of it together. */
  private async checkGroups(
    joining: Map<number, ParsedRow[]>,
    ctx: AdminContext,
    defaultCredits: number,
    t: (key: string, params?: Record<string, string | number>) => string,
  ) {
    const siteMayGrant = mayGrantOpeningCredits(ctx.actor);
    for (const [groupId, members] of joining) {
      const group = await this.d.groups.findWithStats(groupId);
      if (!group) continue;
      const problems: string[] = [];
      if (group.user_limit !== null && group.user_count + members.length > group.user_limit)
        problems.push(t('errors.GROUP_FULL'));
      // The same rule the writes apply (opening-credits.ts), summed over the file.
      const required = members.reduce(
        (sum, r) => sum + openingCreditsOf(group, r.body!.credits_quota ?? defaultCredits, siteMayGrant).amount,
        0,
      );
      const remaining = group.credits_pool - group.credits_pool_used;
      if (hasPool(group) && required > remaining) problems.push(t('server.csv.poolShort', { required, remaining }));
      for (const r of members) r.errors.push(...problems);
    }
  }
}
