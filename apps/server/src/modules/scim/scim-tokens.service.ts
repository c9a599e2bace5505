import crypto from 'node:crypto';
import type { CreatedScimToken, ScimToken } from '@aiplatform/contracts';
import type { ScimTokenRow } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { ScimTokensRepo } from './scim-tokens.repo.js';

/** A use is written at most once a minute per token: provisioning runs send many requests. */
const TOUCH_EVERY_MS = 60_000;

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

const present = (r: ScimTokenRow): ScimToken => ({
  id: r.id,
  name: r.name,
  created_by: r.created_by,
  created_at: r.created_at,
  last_used_at: r.last_used_at,
  revoked_at: r.revoked_at,
});

/** Creating, listing and revoking SCIM tokens, and recognising one on a SCIM request. */
export class ScimTokensService {
  constructor(private readonly d: { repo: ScimTokensRepo; tx: AdminTransactions; clock: Clock }) {}

  async list(ctx: AdminContext): Promise<ScimToken[]> {
    authorize(ctx.actor, 'identity.manage');
    return (await this.d.repo.list()).map(present);
  }

  /** The token is answered this once; only its hash is stored, so it can never be shown again. */
  async create(ctx: AdminContext, name: string): Promise<CreatedScimToken> {
    authorize(ctx.actor, 'identity.manage');
    const token = crypto.randomBytes(32).toString('base64url');
    return this.d.tx.run(ctx, async (trx, now) => {
      const id = await this.d.repo.insert(
        { name, token_hash: hashOf(token), created_by: ctx.actor.id, created_at: now },
        trx,
      );
      return {
        result: { id, name, token },
        audit: { action: 'scim_token.create', targetType: 'scim_token', targetId: id, after: { name } },
      };
    });
  }

  async revoke(ctx: AdminContext, id: number): Promise<{ id: number }> {
    authorize(ctx.actor, 'identity.manage');
    return this.d.tx.run(ctx, async (trx, now) => {
      const row = await this.d.repo.findLive(id, trx);
      if (!row) throw new AppError('NOT_FOUND');
      await this.d.repo.revoke(id, now, trx);
      return {
        result: { id },
        audit: { action: 'scim_token.revoke', targetType: 'scim_token', targetId: id, before: { name: row.name } },
      };
    });
  }

  /** The live token a SCIM request presents, or undefined (unknown or revoked). */
  async recognise(token: string): Promise<ScimTokenRow | undefined> {
    if (token.length === 0 || token.length > 200) return undefined;
    const row = await this.d.repo.findLiveByHash(hashOf(token));
    if (!row) return undefined;
    const now = this.d.clock.now();
    await this.d.repo.touch(row.id, iso(now), iso(new Date(now.getTime() - TOUCH_EVERY_MS)));
    return row;
  }
}
