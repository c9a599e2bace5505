import {
  type CapPeriod,
  type CapsBody,
  CapsBodySchema,
  type CapsConfig,
  type MyCaps,
  type PersonalCapsBody,
  PersonalCapsBodySchema,
} from '@aiplatform/contracts';
import type { Db } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize, authorizeFound } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { StatsCalendar } from '../stats/stats-calendar.js';
import { parseAlerts } from './cap-alerts.js';
import { dayIn } from '../stats/stats-calendar.js';
import { nextWindowStart, resetsAt, windowStart } from './cap-windows.js';
import type { CapsRepo } from './caps.repo.js';
import { type CapRow, type CapSubject } from './caps.repo.js';
import { webhookSecret } from './webhook-signature.js';

const asCaps = (rows: readonly CapRow[]) =>
  rows.map((r) => ({ period: r.period, credits: r.credits, model_name: r.model_name || null }));

/**
 * Usage caps as people set and read them: an administrator's on a user or a group (within
 * their scope, audited), and a user's own, which may only be lower than an administrator's.
 */
export class CapsService {
  constructor(
    private readonly d: {
      repo: CapsRepo;
      tx: AdminTransactions;
      clock: Clock;
      calendar: StatsCalendar;
      secret: string;
    },
  ) {}

  /** GET /admin/users/:id/caps */
  async userCaps(actor: Actor, id: number): Promise<CapsConfig> {
    authorizeFound(actor, 'caps.manage', await this.d.repo.userTarget(id), (u) => ({ kind: 'user', ...u }));
    return this.config({ type: 'user', id });
  }

  /** GET /admin/user-groups/:id/caps */
  async groupCaps(actor: Actor, id: number): Promise<CapsConfig> {
    authorize(actor, 'caps.manage', { kind: 'group', id });
    if (!(await this.d.repo.groupExists(id))) throw new AppError('NOT_FOUND');
    return this.config({ type: 'group', id });
  }

  /** PUT /admin/users/:id/caps: replaces the user's caps, alerts and webhook. */
  async updateUserCaps(ctx: AdminContext, id: number, body: CapsBody): Promise<CapsConfig> {
    const target = await this.d.repo.userTarget(id);
    authorizeFound(ctx.actor, 'caps.manage', target, (u) => ({ kind: 'user', ...u }));
    return this.save(ctx, { type: 'user', id }, body);
  }

  /** PUT /admin/user-groups/:id/caps */
  async updateGroupCaps(ctx: AdminContext, id: number, body: CapsBody): Promise<CapsConfig> {
    authorize(ctx.actor, 'caps.manage', { kind: 'group', id });
    if (!(await this.d.repo.groupExists(id))) throw new AppError('NOT_FOUND');
    return this.save(ctx, { type: 'group', id }, body);
  }

  private async config(subject: CapSubject, db?: Db): Promise<CapsConfig> {
    const rows = await this.d.repo.caps(subject, db);
    const stored = await this.d.repo.subjectSettings(subject, db);
    return {
      caps: asCaps(rows.filter((r) => !r.personal)),
      alerts: stored ? parseAlerts(stored.alerts) : [],
      webhook_url: stored?.webhook_url ?? null,
      webhook_secret: webhookSecret(this.d.secret, subject),
    };
  }

  private async save(ctx: AdminContext, subject: CapSubject, input: CapsBody): Promise<CapsConfig> {
    const body = CapsBodySchema.parse(input);
    if (body.alerts.some((a) => a.channels.includes('webhook')) && !body.webhook_url) {
      throw new InputError(['validation.caps.webhookMissing']);
    }
    await this.d.tx.run(ctx, async (trx, now) => {
      const before = await this.config(subject, trx);
      const caps = body.caps.map((c) => ({ period: c.period, credits: c.credits, model_name: c.model_name ?? '' }));
      await this.d.repo.replaceCaps(trx, subject, false, caps, now);
      await this.d.repo.saveSubjectSettings(trx, subject, JSON.stringify(body.alerts), body.webhook_url ?? null, now);
      // Counted afresh from the statistics the next time a cap counts (turns while uncapped were not counted).
      await this.d.repo.dropCounters(trx, subject);
      const after = { caps: asCaps(caps.map((c) => ({ ...c, personal: 0 }) as CapRow)), alerts: body.alerts };
      return {
        result: null,
        audit: {
          action: `${subject.type}.caps.update`,
          targetType: subject.type,
          targetId: subject.id,
          before: { caps: before.caps, alerts: before.alerts, webhook_url: before.webhook_url },
          after: { ...after, webhook_url: body.webhook_url ?? null },
        },
      };
    });
    return this.config(subject);
  }

  /** GET /auth/caps: the caps in force for the caller now (the lowest of each kind) and their own. */
  async mine(user: { id: number; group_id: number | null }): Promise<MyCaps> {
    const [own, group] = await Promise.all([
      this.d.repo.caps({ type: 'user', id: user.id }),
      user.group_id === null ? Promise.resolve([]) : this.d.repo.caps({ type: 'group', id: user.group_id }),
    ]);
    const timeZone = await this.d.calendar.timeZone();
    const day = dayIn(this.d.clock.now(), timeZone);
    const applying: MyCaps['applying'] = [];
    for (const subject of [own, group]) {
      // A user's personal cap and their administrator's share a counter: the lower shows.
      const lowest = new Map<string, CapRow>();
      for (const r of subject) {
        const k = `${r.period}/${r.model_name}`;
        const known = lowest.get(k);
        if (!known || r.credits < known.credits) lowest.set(k, r);
      }
      for (const r of lowest.values()) {
        const key = {
          subject: { type: r.subject_type, id: r.subject_id },
          period: r.period,
          modelName: r.model_name,
          windowStart: windowStart(r.period, day),
          windowEnd: nextWindowStart(r.period, day),
        };
        applying.push({
          period: r.period,
          model_name: r.model_name || null,
          source: r.subject_type === 'group' ? 'group' : r.personal ? 'personal' : 'user',
          limit: r.credits,
          used: await this.d.repo.spent(key),
          resets_at: resetsAt(r.period, day, timeZone),
        });
      }
    }
    return { applying, personal: asCaps(own.filter((r) => r.personal)) };
  }

  /**
   * PUT /auth/caps: the caller's own caps. Each must be lower than every administrator's
   * cap on the same period and model (theirs or their group's); otherwise 400.
   */
  async updateMine(user: { id: number; group_id: number | null }, input: PersonalCapsBody): Promise<MyCaps> {
    const body = PersonalCapsBodySchema.parse(input);
    const subject: CapSubject = { type: 'user', id: user.id };
    const admin = [
      ...(await this.d.repo.caps(subject)).filter((r) => !r.personal),
      ...(user.group_id === null ? [] : await this.d.repo.caps({ type: 'group', id: user.group_id })),
    ];
    const ceiling = (period: CapPeriod, model: string) =>
      Math.min(...admin.filter((r) => r.period === period && r.model_name === model).map((r) => r.credits));
    const errors = body.caps.filter((c) => c.credits >= ceiling(c.period, c.model_name ?? ''));
    if (errors.length > 0) throw new InputError(['validation.caps.notLower']);
    const now = iso(this.d.clock.now());
    await this.d.repo.inTransaction(async (trx) => {
      const caps = body.caps.map((c) => ({ period: c.period, credits: c.credits, model_name: c.model_name ?? '' }));
      await this.d.repo.replaceCaps(trx, subject, true, caps, now);
      await this.d.repo.dropCounters(trx, subject);
    });
    return this.mine(user);
  }
}
