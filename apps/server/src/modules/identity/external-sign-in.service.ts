import crypto from 'node:crypto';
import type { LoginResult } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database, Db, UserRow } from '../../db/types.js';
import { hashPassword } from '../../lib/auth/passwords.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import { AppError } from '../../lib/http/errors.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import type { ClientInfo } from '../auth/session.service.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { insertAccount, reserveGroupPlace } from '../users/account-creation.js';
import { conflictFromDbError } from '../users/identity.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { ExternalProfile } from './external-profile.js';
import type { ProviderRecord } from './provider-record.js';
import { freeUsername } from './sso-username.js';
import type { UserIdentitiesRepo } from './user-identities.repo.js';

/** Opens a session for an account that just proved who it is (the auth module's SessionService). */
export interface SessionStarter {
  startSession(user: UserRow, client: ClientInfo): Promise<LoginResult>;
}

export interface ExternalSignInDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  groups: GroupsRepo;
  identities: UserIdentitiesRepo;
  settings: SettingsService;
  sessions: SessionStarter;
  clock: Clock;
  /** Told after a new account drew its opening credits from a group's pool (the low-pool email). */
  onPoolChanged?: (groupId: number) => void;
}

/**
 * Who a person vouched for by an identity provider is here, whatever the protocol:
 * 1. the identity (provider, subject) already linked → its account;
 * 2. else an account with the profile's email → linked only when the provider vouches for
 *    the email (`emailVerified`) and the provider allows linking (`link_verified_email`):
 *    otherwise anybody able to register that address at the provider would take the account
 *    over (SSO_EMAIL_CONFLICT);
 * 3. else, with `jit`, a new account in the provider's default group (the site's without one)
 *    with the group's opening credits; without it SSO_NOT_PROVISIONED.
 * Then the provider's mappings apply: the first `group_map` value the person carries sets
 * their group (unless an administrator pinned it), and a non-empty `role_map` decides between
 * user and group administrator. A super administrator's role is never touched, and no
 * mapping can grant it. All of it is one transaction: a refusal leaves nothing behind.
 */
export class ExternalSignInService {
  constructor(private readonly d: ExternalSignInDeps) {}

  /** Resolves the account and opens its session (LDAP's password sign-in answers this directly). */
  async signIn(provider: ProviderRecord, profile: ExternalProfile, client: ClientInfo): Promise<LoginResult> {
    const user = await this.resolveAccount(provider, profile);
    return this.d.sessions.startSession(user, client);
  }

  /** The account this profile signs in as, created or linked as the provider allows; throws the refusal. */
  async resolveAccount(provider: ProviderRecord, profile: ExternalProfile): Promise<UserRow> {
    if (!provider.enabled) throw new AppError('SSO_PROVIDER_DISABLED');
    if (!profile.subject) throw new AppError('SSO_TOKEN_INVALID');
    const settings = await this.d.settings.getSettings();
    // A new account gets a password nobody knows; hashed before the transaction when one may be needed.
    const newPasswordHash = () => hashPassword(crypto.randomBytes(32).toString('base64url'));
    let unusablePasswordHash =
      provider.jit && !(await this.d.identities.find(provider.id, profile.subject))
        ? await newPasswordHash()
        : undefined;
    const createdIn: number[] = [];
    const email = profile.email?.trim().toLowerCase() || undefined;
    const once = () =>
      this.d.db.transaction().execute(async (trx) => {
        const now = iso(this.d.clock.now());
        let user = await this.findLinked(provider, profile, email, now, trx);
        if (!user) {
          user = await this.linkByEmail(provider, profile, email, now, trx);
        }
        if (!user) {
          if (!provider.jit || !email) throw new AppError('SSO_NOT_PROVISIONED');
          const groupId = provider.default_group_id ?? settings.user.default_group_id;
          const id = await insertAccount(
            trx,
            { users: this.d.users, groups: this.d.groups },
            {
              email,
              username: await freeUsername(this.d.users, { username: profile.username, email }, trx),
              phone: null,
              passwordHash: (unusablePasswordHash ??= await newPasswordHash()),
              role: 'user',
              groupId,
              credits: settings.user.default_credits,
              siteMayGrant: true,
              whenPoolShort: 'open-empty',
              tokens: settings.user.default_tokens,
              grantDescription: 'server.ledger.ssoGrant',
              now,
            },
          );
          createdIn.push(groupId);
          await this.d.identities.insert(
            { provider_id: provider.id, subject: profile.subject, user_id: id, email, now },
            trx,
          );
          user = await this.d.users.findWithGroupById(id, trx);
          if (!user) throw new AppError('SSO_NOT_PROVISIONED');
        }
        if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
        const patch = await this.mapped(provider, profile, user, trx, now);
        await this.d.users.update(user.id, { ...patch, last_login_at: now }, trx);
        return { ...user, ...patch, last_login_at: now };
      });
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await once();
        } catch (err) {
          // Two first sign-ins of one person at once: the second insert breaks a unique index and
          // its transaction is rolled back; tried again, it finds what the first one created.
          if (attempt < 2 && isUniqueViolation(err)) continue;
          throw conflictFromDbError(err) ?? err;
        }
      }
    } finally {
      for (const groupId of createdIn) this.d.onPoolChanged?.(groupId);
    }
  }

  /** The account already linked to (provider, subject); a link to a retired account is dropped. */
  private async findLinked(
    provider: ProviderRecord,
    profile: ExternalProfile,
    email: string | undefined,
    now: string,
    trx: Db,
  ): Promise<UserRow | undefined> {
    const identity = await this.d.identities.find(provider.id, profile.subject, trx);
    if (!identity) return undefined;
    const user = await this.d.users.findWithGroupById(identity.user_id, trx);
    if (!user) {
      await this.d.identities.remove(identity.id, trx);
      return undefined;
    }
    await this.d.identities.touch(identity.id, email ?? identity.email, now, trx);
    return user;
  }

  /** Links the profile to the account holding its email, when both the provider and the profile allow it. */
  private async linkByEmail(
    provider: ProviderRecord,
    profile: ExternalProfile,
    email: string | undefined,
    now: string,
    trx: Db,
  ): Promise<UserRow | undefined> {
    if (!email) return undefined;
    const holder = await this.d.users.findByEmail(email, trx);
    if (!holder) return undefined;
    if (!profile.emailVerified || !provider.link_verified_email) throw new AppError('SSO_EMAIL_CONFLICT');
    await this.d.identities.insert(
      { provider_id: provider.id, subject: profile.subject, user_id: holder.id, email, now },
      trx,
    );
    return holder;
  }

  /** The group and role the provider's mappings give this person, as a patch of the user row. */
  private async mapped(
    provider: ProviderRecord,
    profile: ExternalProfile,
    user: UserRow,
    trx: Db,
    now: string,
  ): Promise<Partial<Pick<UserRow, 'group_id' | 'role'>>> {
    const carried = new Set(profile.groups);
    const patch: Partial<Pick<UserRow, 'group_id' | 'role'>> = {};
    const groupEntry = provider.mapping.group_map.find((g) => carried.has(g.value));
    if (groupEntry && user.group_pinned !== 1 && user.group_id !== groupEntry.group_id) {
      // The rules of any move: the group must exist and have room (its row lock held till commit).
      try {
        if (await reserveGroupPlace(this.d.groups, groupEntry.group_id, trx, now)) patch.group_id = groupEntry.group_id;
      } catch (err) {
        // A full group keeps the person where they are rather than refusing the sign-in.
        if (!(err instanceof AppError && err.code === 'GROUP_FULL')) throw err;
      }
    }
    if (provider.mapping.role_map.length > 0 && user.role !== 'super_admin') {
      // Only 'admin' can be mapped (the schema refuses anything else): never a super administrator.
      const role = provider.mapping.role_map.some((r) => carried.has(r.value)) ? 'admin' : 'user';
      if (role !== user.role) patch.role = role;
    }
    return patch;
  }
}
