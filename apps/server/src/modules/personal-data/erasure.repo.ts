import type { Kysely } from 'kysely';
import type { Database, Db, UserRow } from '../../db/types.js';

/** Files removed per statement, well under every dialect's parameter limit. */
const FILE_BATCH = 200;

/** Not an argon2 hash: no password ever verifies against it. */
const NO_PASSWORD = '!erased';

/** What an erased account is called: unique by its id, and nothing of the person. */
export const erasedIdentity = (id: number) => ({
  username: `erased-${id}`,
  email: `erased-${id}@erased.invalid`,
});

/**
 * The SQL of an erasure. The ledger (`credit_transactions`), usage rollups and the audit log
 * are never touched: they keep their amounts under the account's id, which now names nobody.
 */
export class ErasureRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Locks the account, retired or not, for the rest of the transaction. */
  lock(id: number, db: Db, now: string): Promise<UserRow | undefined> {
    return db.updateTable('users').set({ updated_at: now }).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /**
   * Replaces everything that identifies the person: names, email, phone, avatar, the
   * directory's keys and the administrators' note; the password can no longer match, the
   * account is disabled and retired (so it frees its group place), and its role is plain.
   */
  async anonymise(id: number, now: string, db: Db): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) => ({
        ...erasedIdentity(id),
        phone: null,
        avatar_url: null,
        avatar_bytes: 0,
        remark: null,
        external_id: null,
        scim_user_name: null,
        scim_profile: null,
        password_hash: NO_PASSWORD,
        role: 'user',
        status: 'inactive',
        deleted_at: eb.fn.coalesce('deleted_at', eb.val(now)),
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Removes what ties the account to people and systems outside, and the content that is
   * rows only: single sign-on links, API keys, extra permissions, share links, personal
   * prompt templates, personal knowledge bases (their documents stay files of the account
   * until removed with the rest), pending sign-in codes and sign-in attempts under its old
   * names, and its bell notifications.
   */
  async removeLinksAndRows(user: Pick<UserRow, 'id' | 'email' | 'username'>, db: Db): Promise<void> {
    const id = user.id;
    await db.deleteFrom('user_identities').where('user_id', '=', id).execute();
    await db.deleteFrom('api_keys').where('user_id', '=', id).execute();
    await db.deleteFrom('user_permissions').where('user_id', '=', id).execute();
    await db.deleteFrom('share_links').where('user_id', '=', id).execute();
    await db.deleteFrom('prompt_templates').where('owner_id', '=', id).where('scope', '=', 'personal').execute();
    await db.deleteFrom('knowledge_bases').where('user_id', '=', id).where('scope', '=', 'personal').execute();
    await db.deleteFrom('email_codes').where('email', '=', user.email).execute();
    await db.deleteFrom('login_attempts').where('account_key', 'in', [user.email, user.username]).execute();
    await db.deleteFrom('notifications').where('user_id', '=', id).execute();
  }

  async countFiles(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Conversations the person deleted while held were only hidden; once no hold covers them
   * any more, erasure deletes them like the rest, through the owner's deletion.
   */
  async unhideConversations(userId: number, db: Db): Promise<void> {
    await db
      .updateTable('conversations')
      .set({ hidden_at: null })
      .where('user_id', '=', userId)
      .where('hidden_at', 'is not', null)
      .execute();
  }

  async conversationIds(userId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('conversations').select('id').where('user_id', '=', userId).execute();
    return rows.map((r) => r.id);
  }

  /**
   * Deletes a batch of the account's files that no message lists and no group's knowledge
   * base holds (a group's knowledge base is the group's material, kept with it), and
   * answers their stored names so the bytes can go after the commit.
   */
  async deleteFileBatch(userId: number): Promise<{ id: string; stored_name: string }[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('files')
        .select(['id', 'stored_name'])
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.not(
            eb.or([
              eb.exists(
                eb.selectFrom('message_files').select('file_id').whereRef('message_files.file_id', '=', 'files.id'),
              ),
              eb.exists(
                eb
                  .selectFrom('knowledge_base_documents')
                  .innerJoin('knowledge_bases', 'knowledge_bases.id', 'knowledge_base_documents.knowledge_base_id')
                  .select('knowledge_base_documents.file_id')
                  .whereRef('knowledge_base_documents.file_id', '=', 'files.id')
                  .where('knowledge_bases.scope', '=', 'group'),
              ),
            ]),
          ),
        )
        .orderBy('id')
        .limit(FILE_BATCH)
        .execute();
      if (rows.length > 0) {
        await trx
          .deleteFrom('files')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
      }
      return rows;
    });
  }
}
