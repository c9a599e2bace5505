import fs from 'node:fs';
import path from 'node:path';
import type { EraseUserResult } from '@aiplatform/contracts';
import type { Db } from '../../db/types.js';
import { AppError, notFound } from '../../lib/http/errors.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize, refuseSelfAction, requireScope } from '../../policies/policy.js';
import { userTarget } from '../../policies/user-targets.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { AVATAR_URL_PREFIX } from '../auth/avatar.repo.js';
import type { ErasureRepo } from './erasure.repo.js';

/** Whether a legal hold preserves a person's data (on them, or on their group). */
export interface LegalHolds {
  isUserHeld(userId: number, db?: Db): Promise<boolean>;
}

/** What erasure needs of the chat: a conversation deleted as its owner would (answers stopped, refunds, images). */
export interface ConversationRemover {
  remove(userId: number, conversationId: string): Promise<unknown>;
}

/** What erasure needs of the sessions: every one of the account's ended, in the transaction. */
export interface SessionRevoker {
  revokeUserSessions(userId: number, now: string, exceptSessionId: undefined, db: Db): Promise<unknown>;
}

export interface ErasureDeps {
  repo: ErasureRepo;
  tx: AdminTransactions;
  holds: LegalHolds;
  conversations: ConversationRemover;
  sessions: SessionRevoker;
  /** DATA_DIR/uploads and DATA_DIR/avatars. */
  uploadsDir: string;
  avatarsDir: string;
}

/**
 * Erasure of an account (super administrators): first, in one audited transaction, the
 * account is anonymised and shut (sessions ended, sign-in links, keys and permissions
 * removed) with its row-only content; then its conversations are deleted one by one as
 * their owner would delete them, and its remaining files, rows and bytes. Nothing is done
 * while a legal hold covers the account. The ledger keeps every amount. Rules in
 * docs/governance.md.
 */
export class ErasureService {
  constructor(private readonly d: ErasureDeps) {}

  async erase(ctx: AdminContext, id: number, reason: string): Promise<EraseUserResult> {
    const { actor } = ctx;
    refuseSelfAction(actor, 'user.erase', id);
    requireScope(actor, 'user.erase');
    if (await this.d.holds.isUserHeld(id)) throw new AppError('USER_ON_LEGAL_HOLD');
    const avatar = await this.d.tx.run(ctx, async (trx, now) => {
      const user = await this.d.repo.lock(id, trx, now);
      if (!user) throw notFound();
      authorize(actor, 'user.erase', userTarget(user));
      // Again under the account's lock: a hold placed meanwhile wins.
      if (await this.d.holds.isUserHeld(id, trx)) throw new AppError('USER_ON_LEGAL_HOLD');
      await this.d.sessions.revokeUserSessions(id, now, undefined, trx);
      await this.d.repo.removeLinksAndRows(user, trx);
      await this.d.repo.unhideConversations(id, trx);
      await this.d.repo.anonymise(id, now, trx);
      return {
        result: user.avatar_url,
        audit: { action: 'user.erase', targetType: 'user', targetId: id, before: null, after: { reason } },
      };
    });
    const filesBefore = await this.d.repo.countFiles(id);
    let conversations = 0;
    for (const conversationId of await this.d.repo.conversationIds(id)) {
      try {
        await this.d.conversations.remove(id, conversationId);
        conversations += 1;
      } catch (err) {
        // Deleted meanwhile (a retention run): nothing left to remove.
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
    }
    await this.removeFiles(id);
    const files = filesBefore - (await this.d.repo.countFiles(id));
    if (avatar?.startsWith(AVATAR_URL_PREFIX)) {
      await fs.promises.rm(path.join(this.d.avatarsDir, path.basename(avatar)), { force: true }).catch(() => undefined);
    }
    return { id, conversations, files };
  }

  /** The account's remaining files, rows then bytes, a batch at a time. */
  private async removeFiles(userId: number): Promise<void> {
    for (;;) {
      const batch = await this.d.repo.deleteFileBatch(userId);
      await Promise.all(
        batch.map((f) =>
          fs.promises
            .rm(path.join(this.d.uploadsDir, path.basename(f.stored_name)), { force: true })
            .catch(() => undefined),
        ),
      );
      if (batch.length === 0) return;
    }
  }
}
