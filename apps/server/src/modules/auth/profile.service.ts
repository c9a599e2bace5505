import {
  type ChangePasswordBody,
  type CreditHistoryResult,
  effectivePermissions,
  type Language,
  type SessionData,
  type TransactionType,
  type UpdateProfileBody,
  type User,
} from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { ledgerDescription, ledgerModelName } from '../credits/ledger.presenter.js';
import { sessionAbilities } from '../../policies/abilities.js';
import type { FailureSlots } from '../../lib/auth/failure-slots.js';
import { hashPassword, verifyPassword } from '../../lib/auth/passwords.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { toSiteConfig, toUserDto } from '../users/user.presenter.js';
import type { UsersRepo } from '../users/users.repo.js';
import { assertIdentityFree, conflictFromDbError } from '../users/identity.js';
import type { SessionRepo } from './session.repo.js';

/** The signed-in user's own account: who they are, profile edits, password, credit history. */
export class ProfileService {
  constructor(
    private readonly users: UsersRepo,
    private readonly credits: CreditsRepo,
    private readonly sessions: SessionRepo,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    /** Wrong current passwords per account (a stolen session must not guess on). */
    private readonly passwordTries: FailureSlots,
    /** Told after the account row changed (the session cache holds it). */
    private readonly onUserChanged?: () => Promise<void>,
  ) {}

  /** The user behind a session, refusing disabled or deleted accounts. */
  /** Whether the account is disabled (a session it had was ended by that). */
  isDisabled(userId: number): Promise<boolean> {
    return this.users.isDisabled(userId);
  }

  async findActiveUser(userId: number): Promise<UserRow> {
    const user = await this.users.findWithGroupById(userId);
    if (!user) throw new AppError('UNAUTHORIZED');
    if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    return user;
  }

  /**
   * `permissions`, when the caller already has them (the signed-in request's, cached with
   * its session), spares reading the user's grants: the user row is then the only read.
   */
  async getSessionData(userId: number, permissions?: () => Promise<string[]>): Promise<SessionData> {
    const [user, effective, settings] = await Promise.all([
      this.users.findWithGroupById(userId),
      permissions?.(),
      this.settings.getSettings(),
    ]);
    if (!user) throw new AppError('UNAUTHORIZED');
    const held = effective ?? effectivePermissions(user.role, await this.users.grantedPermissions(userId));
    const { id, username, role, group_id } = user;
    return {
      user: toUserDto(user, this.clock.now()),
      permissions: held,
      siteConfig: toSiteConfig(user, settings),
      abilities: sessionAbilities({ id, username, role, group_id, permissions: held }),
    };
  }

  async getUser(userId: number): Promise<User> {
    return (await this.getSessionData(userId)).user;
  }

  async updateProfile(userId: number, body: UpdateProfileBody): Promise<{ user: User }> {
    await assertIdentityFree(this.users, { username: body.username, phone: body.phone }, userId);
    try {
      await this.users.update(userId, {
        username: body.username,
        ...(body.phone === undefined ? {} : { phone: body.phone }),
        updated_at: iso(this.clock.now()),
      });
    } catch (err) {
      throw conflictFromDbError(err) ?? err;
    }
    await this.onUserChanged?.();
    return { user: await this.getUser(userId) };
  }

  /**
   * Changes the password and signs out every other session of the user. Wrong current
   * passwords are limited per account, whichever session sends them
   * (LIMITS.passwordChangeMaxFailures in the window); a success starts the count again.
   */
  async changePassword(userId: number, sessionId: string, body: ChangePasswordBody): Promise<void> {
    const user = await this.findActiveUser(userId);
    const subject = String(userId);
    const slot = await this.passwordTries.take(subject);
    if (slot === undefined) {
      const seconds = await this.passwordTries.secondsUntilFree(subject);
      throw new AppError('TOO_MANY_PASSWORD_ATTEMPTS', { minutes: Math.max(1, Math.ceil(seconds / 60)) });
    }
    let right: boolean;
    try {
      right = await verifyPassword(user.password_hash, body.oldPassword);
    } catch (err) {
      await this.passwordTries.release(subject, slot);
      throw err;
    }
    if (!right) throw new AppError('OLD_PASSWORD_WRONG');
    await this.passwordTries.clear(subject);
    const now = iso(this.clock.now());
    await this.users.update(userId, { password_hash: await hashPassword(body.newPassword), updated_at: now });
    await this.sessions.revokeUserSessions(userId, now, sessionId);
  }

  /** After another service changed the account row (the avatar): caches hear of it; the account as it is now. */
  async accountChanged(userId: number): Promise<{ user: User }> {
    await this.onUserChanged?.();
    return { user: await this.getUser(userId) };
  }

  /** System entries store an i18n key as description; they are shown in the reader's language. */
  async creditHistory(userId: number, page: number, limit: number, lang: Language): Promise<CreditHistoryResult> {
    const { rows, total } = await this.credits.historyPage(userId, page, limit);
    return {
      history: rows.map((r) => ({
        ...r,
        transaction_type: r.transaction_type as TransactionType,
        model_display_name: ledgerModelName(r),
        description: ledgerDescription(lang, r.description, ledgerModelName(r)),
      })),
      pagination: { page, limit, total },
    };
  }
}
