import { type Language, type UserImportReport, scopeOf } from '@aiplatform/contracts';
import { AppError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { hashPassword } from '../../lib/passwords.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize, can } from '../../policies/policy.js';
import type { AdminTransactions } from '../admin/admin-tx.js';
import { conflictFromDbError } from '../auth/identity.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { insertAccount } from './account-creation.js';
import { type ParsedRow, parseUserCsv } from './user-csv-import.js';
import { type UsersRepo, isRowId } from './users.repo.js';

/**
 * CSV import of users: every row is checked before anything is written; a dry run
 * stops at the report, a real run writes all rows in one transaction or none.
 */
export class UserImportService {
  constructor(
    private readonly d: { users: UsersRepo; groups: GroupsRepo; settings: SettingsService; tx: AdminTransactions },
  ) {}

  async import(ctx: AdminContext, file: Buffer, dryRun: boolean, lang: Language): Promise<UserImportReport> {
    authorize(ctx.actor, 'user.import');
    const rows = parseUserCsv(file, lang);
    const settings = await this.d.settings.getSettings();
    await this.checkRows(ctx, rows, settings.user.default_group_id, lang);
    const errors = rows.filter((r) => r.errors.length > 0).map((r) => ({ row: r.row, errors: r.errors }));
    const report = { dry_run: dryRun, total: rows.length, valid: rows.length - errors.length, created: 0, errors };
    if (dryRun) return report;
    if (errors.length > 0) throw new AppError('CSV_INVALID', {}, { ...report });

    const prepared = await Promise.all(
      rows.map(async (r) => ({ body: r.body!, passwordHash: await hashPassword(r.body!.password) })),
    );
    try {
      return await this.d.tx.run(ctx, async (trx, now) => {
        // Every target group locked up front in id order: two imports naming the same
        // groups in different row orders queue up instead of deadlocking.
        const groupIds = prepared.map(({ body }) => this.groupFor(ctx, body.group_id, settings.user.default_group_id));
        for (const id of [...new Set(groupIds)].sort((a, b) => (a ?? 0) - (b ?? 0))) {
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
            groupId: this.groupFor(ctx, body.group_id, settings.user.default_group_id),
            credits: body.credits_quota ?? settings.user.default_credits,
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
    } catch (err) {
      // A concurrent sign-up took an identity between the check and the write.
      throw conflictFromDbError(err) ?? err;
    }
  }

  private groupFor(ctx: AdminContext, requested: number | undefined, fallback: number): number | null {
    return scopeOf(ctx.actor.permissions, 'user.import') === 'all' ? (requested ?? fallback) : ctx.actor.group_id;
  }

  /** Adds to each row what only the whole file and the database can tell. */
  private async checkRows(ctx: AdminContext, rows: ParsedRow[], fallbackGroup: number, lang: Language) {
    const seen = {
      email: new Map<string, number>(),
      username: new Map<string, number>(),
      phone: new Map<string, number>(),
    };
    const joining = new Map<number, number>();
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
      else joining.set(groupId, (joining.get(groupId) ?? 0) + 1);
    }
    await this.checkGroupLimits(rows, joining, ctx, fallbackGroup, t);
  }

  private async checkGroupLimits(
    rows: ParsedRow[],
    joining: Map<number, number>,
    ctx: AdminContext,
    fallbackGroup: number,
    t: (key: string) => string,
  ) {
    for (const [groupId, count] of joining) {
      const group = await this.d.groups.findWithStats(groupId);
      if (!group || group.user_limit === null || group.user_count + count <= group.user_limit) continue;
      for (const r of rows) {
        if (r.body && this.groupFor(ctx, r.body.group_id, fallbackGroup) === groupId)
          r.errors.push(t('errors.GROUP_FULL'));
      }
    }
  }
}
