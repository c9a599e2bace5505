import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types.js';
import { hashPassword } from '../../lib/passwords.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import type { UsersRepo } from './users.repo.js';

export interface NewAccount {
  email: string;
  username: string;
  phone: string | null;
  password: string;
  role: UserRow['role'];
  groupId: number | null;
  credits: number;
  tokens: number;
  grantDescription: string;
  now: string;
}

/**
 * Creates a user and writes the opening credit grant to the ledger in the same
 * transaction, so that from the first day the ledger sum equals the balance.
 */
export async function createAccount(
  db: Kysely<Database>,
  users: UsersRepo,
  credits: CreditsRepo,
  a: NewAccount,
): Promise<number> {
  const passwordHash = await hashPassword(a.password);
  return db.transaction().execute(async (trx) => {
    const groupExists = a.groupId
      ? await trx.selectFrom('user_groups').select('id').where('id', '=', a.groupId).executeTakeFirst()
      : undefined;
    const id = await users.insert(
      {
        email: a.email.toLowerCase(),
        username: a.username,
        phone: a.phone,
        password_hash: passwordHash,
        role: a.role,
        status: 'active',
        group_id: groupExists ? a.groupId : null,
        avatar_url: null,
        credits_quota: a.credits,
        credits_used: 0,
        credits_expire_at: null,
        token_quota: a.tokens,
        token_used: 0,
        remark: null,
        created_at: a.now,
        updated_at: a.now,
        last_login_at: null,
      },
      trx,
    );
    if (a.credits > 0) {
      await credits.appendLedger(
        {
          user_id: id,
          transaction_type: 'register_grant',
          amount: a.credits,
          balance_after: a.credits,
          description: a.grantDescription,
          created_at: a.now,
        },
        trx,
      );
    }
    return id;
  });
}
