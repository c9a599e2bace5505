import type {
  ChangePasswordBody,
  Language,
  CreditHistoryResult,
  SessionData,
  TransactionType,
  UpdateProfileBody,
  User,
} from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { type Clock, iso } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { effectivePermissions, toSiteConfig, toUserDto } from '../users/user.presenter.js';
import type { UsersRepo } from '../users/users.repo.js';
import { assertIdentityFree, conflictFromDbError } from './identity.js';
import type { SessionRepo } from './session.repo.js';

/** The signed-in user's own account: who they are, profile edits, password, credit history. */
export class ProfileService {
  constructor(
    private readonly users: UsersRepo,
    private readonly credits: CreditsRepo,
    private readonly sessions: SessionRepo,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    /** Told after the account row changed (the session cache holds it). */
    private readonly onUserChanged?: () => Promise<void>,
  ) {}

  /** The user behind a session, refusing disabled or deleted accounts. */
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
    return {
      user: toUserDto(user, this.clock.now()),
      permissions: effective ?? effectivePermissions(user.role, await this.users.extraPermissions(userId)),
      siteConfig: toSiteConfig(user, settings),
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

  /** Changes the password and signs out every other session of the user. */
  async changePassword(userId: number, sessionId: string, body: ChangePasswordBody): Promise<void> {
    const user = await this.findActiveUser(userId);
    if (!(await verifyPassword(user.password_hash, body.oldPassword))) throw new AppError('OLD_PASSWORD_WRONG');
    const now = iso(this.clock.now());
    await this.users.update(userId, { password_hash: await hashPassword(body.newPassword), updated_at: now });
    await this.sessions.revokeUserSessions(userId, now, sessionId);
  }

  async setAvatar(userId: number, avatarUrl: string): Promise<{ user: User }> {
    await this.users.update(userId, { avatar_url: avatarUrl, updated_at: iso(this.clock.now()) });
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
        description: r.description.startsWith('server.ledger.') ? translate(lang, r.description) : r.description,
      })),
      pagination: { page, limit, total },
    };
  }
}
