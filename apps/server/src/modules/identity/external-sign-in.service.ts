import crypto from 'node:crypto';
import type { LoginResult } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database, Db, UserRow } from '../../db/types.js';
import { hashPassword } from '../../lib/auth/passwords.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import { AppError } from '../../lib/http/errors.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import type { AuditEntry, AuditService } from '../audit/audit.service.js';
import type { ClientInfo } from '../auth/session.service.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { insertAccount, reserveGroupPlace } from '../users/account-creation.js';
import { conflictFromDbError } from '../users/identity.js';
import type { UsersRepo } from '../users/users.repo.js';
import {
  type AccountDecision,
  type AccountFacts,
  decideAccount,
  type MappedAccess,
  mappedAccess,
  normalizedEmail,
} from './account-decision.js';
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
  /** Records what a sign-in changed (an account opened or linked, a group or role mapped). */
  audit?: Pick<AuditService, 'record'>;
}

/**
 * Who a person vouched for by an identity provider is here, whatever the protocol: the rules
 * are `decideAccount` (linked identity, then a verified email's account, then a new account
 * with `jit`), carried out here. A new account gets the group's opening credits. Then the
 * provider's mappings apply (`mappedAccess`): the group moves unless an administrator pinned
 * it, and only into a group with room; a non-empty `role_map` decides between user and group
 * administrator. All of it is one transaction: a refusal leaves nothing behind.
 */
export class ExternalSignInService {
  constructor(private readonly d: ExternalSignInDeps) {}

  /** Resolves the account and opens its session (LDAP's password sign-in answers this directly). */
  async signIn(provider: ProviderRecord, profile: ExternalProfile, client: ClientInfo): Promise<LoginResult> {
    const user = await this.resolveAccount(provider, profile);
    return this.d.sessions.startSession(user, client);
  }

  /**
   * What a sign-in with this profile would do, read only (the administrator's test sign-in):
   * the same decision and mappings `resolveAccount` carries out. A disabled provider is
   * previewed too: it is tested before it is switched on.
   */
  async preview(
    provider: ProviderRecord,
    profile: ExternalProfile,
  ): Promise<{ decision: AccountDecision; mapped: MappedAccess }> {
    if (!profile.subject) throw new AppError('SSO_TOKEN_INVALID');
    const settings = await this.d.settings.getSettings();
    const { facts } = await this.facts(provider, profile, settings.user.default_group_id, this.d.db);
    const decision = decideAccount(provider, profile, facts);
    const user = 'user' in decision ? decision.user : undefined;
    return { decision, mapped: mappedAccess(provider, profile, user) };
  }

  /** The account this profile signs in as, created or linked as the provider allows; throws the refusal. */
  async resolveAccount(provider: ProviderRecord, profile: ExternalProfile): Promise<UserRow> {
    if (!provider.enabled) throw new AppError('SSO_PROVIDER_DISABLED');
    if (!profile.subject) throw new AppError('SSO_TOKEN_INVALID');
    // Read before the transaction: on SQLite the transaction holds the only connection.
    const settings = await this.d.settings.getSettings();
    // A new account gets a password nobody knows; hashed before the transaction when one may be needed.
    const newPasswordHash = () => hashPassword(crypto.randomBytes(32).toString('base64url'));
    let unusablePasswordHash =
      provider.jit && !(await this.d.identities.find(provider.id, profile.subject))
        ? await newPasswordHash()
        : undefined;
    const createdIn: number[] = [];
    const email = normalizedEmail(profile);
    const once = () =>
      this.d.db.transaction().execute(async (trx) => {
        const now = iso(this.d.clock.now());
        const audit: AuditEntry[] = [];
        const who = { provider: provider.slug, subject: profile.subject };
        const { facts, identity } = await this.facts(provider, profile, settings.user.default_group_id, trx);
        // A link to a retired account is dropped: the person is matched anew.
        if (identity && !facts.linked) await this.d.identities.remove(identity.id, trx);
        const decision = decideAccount(provider, profile, facts);
        let user: UserRow;
        switch (decision.account) {
          case 'conflict':
            throw new AppError('SSO_EMAIL_CONFLICT');
          case 'not_provisioned':
            throw new AppError('SSO_NOT_PROVISIONED');
          case 'not_allowed':
            throw new AppError('SSO_GROUP_REQUIRED');
          case 'disabled':
            throw new AppError('ACCOUNT_DISABLED');
          case 'existing':
            user = decision.user;
            await this.d.identities.touch(identity!.id, email ?? identity!.email, now, trx);
            break;
          case 'link':
            user = decision.user;
            await this.d.identities.insert(
              { provider_id: provider.id, subject: profile.subject, user_id: user.id, email: email!, now },
              trx,
            );
            audit.push({ action: 'user.sso_link', targetType: 'user', targetId: user.id, after: who });
            break;
          case 'create': {
            const id = await insertAccount(
              trx,
              { users: this.d.users, groups: this.d.groups },
              {
                email: email!,
                username: await freeUsername(this.d.users, { username: profile.username, email: email! }, trx),
                phone: null,
                passwordHash: (unusablePasswordHash ??= await newPasswordHash()),
                role: 'user',
                groupId: decision.groupId,
                credits: settings.user.default_credits,
                siteMayGrant: true,
                whenPoolShort: 'open-empty',
                tokens: settings.user.default_tokens,
                grantDescription: 'server.ledger.ssoGrant',
                now,
              },
            );
            createdIn.push(decision.groupId);
            await this.d.identities.insert(
              { provider_id: provider.id, subject: profile.subject, user_id: id, email: email!, now },
              trx,
            );
            const created = await this.d.users.findWithGroupById(id, trx);
            if (!created) throw new AppError('SSO_NOT_PROVISIONED');
            user = created;
            audit.push({
              action: 'user.sso_create',
              targetType: 'user',
              targetId: id,
              after: { ...who, email, username: user.username, group_id: user.group_id },
            });
          }
        }
        const patch = await this.mapped(provider, profile, user, trx, now);
        await this.d.users.update(user.id, { ...patch, last_login_at: now }, trx);
        if (Object.keys(patch).length > 0) {
          const before = Object.fromEntries(Object.keys(patch).map((k) => [k, user[k as keyof typeof patch]]));
          audit.push({
            action: 'user.sso_mapping',
            targetType: 'user',
            targetId: user.id,
            before,
            after: { ...patch, ...who },
          });
        }
        await this.recordAudit(user, audit, trx, now);
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

  /** What the decision reads: the linked identity and its account, else the email's account. */
  private async facts(provider: ProviderRecord, profile: ExternalProfile, siteDefaultGroupId: number, db: Db) {
    const identity = await this.d.identities.find(provider.id, profile.subject, db);
    const linked = identity ? await this.d.users.findWithGroupById(identity.user_id, db) : undefined;
    const email = normalizedEmail(profile);
    const emailHolder = !linked && email ? await this.d.users.findByEmail(email, db) : undefined;
    const facts: AccountFacts = { linked, emailHolder, siteDefaultGroupId };
    return { facts, identity };
  }

  /**
   * What the sign-in changed, in the audit log with the person as the actor (nobody else
   * acted): who granted an administrator role or moved someone stays traceable to the provider.
   */
  private async recordAudit(user: UserRow, entries: AuditEntry[], trx: Db, now: string): Promise<void> {
    if (!this.d.audit || entries.length === 0) return;
    const ctx = {
      actor: { id: user.id, username: user.username, role: user.role, group_id: user.group_id, permissions: [] },
      ip: '',
      requestId: 'single-sign-on',
    };
    for (const entry of entries) await this.d.audit.record(trx, ctx, entry, now);
  }

  /** The mappings as a patch of the user row: only what changes, and a group move only into a group with room. */
  private async mapped(
    provider: ProviderRecord,
    profile: ExternalProfile,
    user: UserRow,
    trx: Db,
    now: string,
  ): Promise<Partial<Pick<UserRow, 'group_id' | 'role'>>> {
    const { groupId, role } = mappedAccess(provider, profile, user);
    const patch: Partial<Pick<UserRow, 'group_id' | 'role'>> = {};
    if (groupId !== null && user.group_id !== groupId) {
      // The rules of any move: the group must exist and have room (its row lock held till commit).
      try {
        if (await reserveGroupPlace(this.d.groups, groupId, trx, now)) patch.group_id = groupId;
      } catch (err) {
        // A full group keeps the person where they are rather than refusing the sign-in.
        if (!(err instanceof AppError && err.code === 'GROUP_FULL')) throw err;
      }
    }
    if (role !== null && role !== user.role) patch.role = role;
    return patch;
  }
}
