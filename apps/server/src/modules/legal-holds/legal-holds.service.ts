import type { LegalHold, LegalHoldBody, LegalHoldState } from '@aiplatform/contracts';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import { notFound } from '../../lib/http/errors.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { HoldSubject, LegalHoldsRepo } from './legal-holds.repo.js';

/**
 * Legal holds, placed and released by super administrators on a user or a whole group. A
 * held user's conversations are never deleted: not by retention, not by the user (their
 * deletion hides instead). Every change is written with its audit row.
 */
export class LegalHoldsService {
  constructor(private readonly d: { repo: LegalHoldsRepo; tx: AdminTransactions }) {}

  /** Places (with a reason) or releases the hold on one user or group; an unknown one is not found. */
  async set(ctx: AdminContext, subject: HoldSubject, id: number, body: LegalHoldBody): Promise<LegalHoldState> {
    authorize(ctx.actor, 'legal_hold.manage');
    return this.d.tx.run(ctx, async (trx, now) => {
      if (!(await this.d.repo.subjectExists(trx, subject, id))) throw notFound();
      const before = await this.d.repo.find(trx, subject, id);
      if (body.on) await this.d.repo.place(trx, subject, id, body.reason, ctx.actor.id, now);
      else await this.d.repo.release(trx, subject, id);
      const after = await this.d.repo.find(trx, subject, id);
      const result: LegalHoldState = {
        subject_type: subject,
        subject_id: id,
        on: after !== undefined,
        reason: after?.reason ?? null,
        placed_at: after?.placed_at ?? null,
      };
      return {
        result,
        audit: {
          action: body.on ? 'legal_hold.place' : 'legal_hold.release',
          targetType: subject,
          targetId: id,
          before: before ? { on: true, reason: before.reason } : { on: false },
          after: after ? { on: true, reason: after.reason } : { on: false },
        },
      };
    });
  }

  /** Every hold, newest first, for the console. */
  async list(actor: Actor): Promise<LegalHold[]> {
    authorize(actor, 'legal_hold.manage');
    const rows = await this.d.repo.list();
    return rows.map((r) => ({
      id: r.id,
      subject_type: r.subject_type,
      subject_id: r.subject_id,
      subject_name: (r.subject_type === 'user' ? r.user_name : r.group_name) ?? `#${r.subject_id}`,
      reason: r.reason,
      placed_at: r.placed_at,
      placed_by_name: r.placed_by_name,
    }));
  }
}
