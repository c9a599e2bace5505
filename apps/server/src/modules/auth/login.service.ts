import {
  LIMITS,
  type LoginBody,
  type LoginByCodeBody,
  type LoginByEmailPasswordBody,
  type LoginResult,
  PHONE_PATTERN,
} from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { type Clock, addSeconds, iso } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { dummyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { EmailCodeService } from './email-code.service.js';
import type { LoginAttemptsRepo } from './login-attempts.repo.js';
import type { ClientInfo, SessionService } from './session.service.js';

/**
 * The three ways to sign in, each guarded by the failed-attempt limits: per account
 * (`security.max_login_attempts` in 15 minutes) and per IP address (ten times that,
 * since a whole office may share one address).
 */
export class LoginService {
  constructor(
    private readonly users: UsersRepo,
    private readonly attempts: LoginAttemptsRepo,
    private readonly codes: EmailCodeService,
    private readonly sessions: SessionService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly limitScale = 1,
  ) {}

  private findByAccount(account: string): Promise<UserRow | undefined> {
    if (account.includes('@')) return this.users.findByEmail(account);
    if (PHONE_PATTERN.test(account)) return this.users.findByPhone(account);
    return this.users.findByUsername(account);
  }

  /**
   * The lockout counts per account, however it was named (email, username or phone).
   * Lower-casing can lengthen text ('İ' becomes two characters); the key column holds 254.
   */
  private static attemptKey(user: UserRow | undefined, typed: string): string {
    return user ? `user:${user.id}` : `account:${typed.toLowerCase().slice(0, LIMITS.emailMax - 8)}`;
  }

  private async isLocked(accountKey: string, ip: string): Promise<boolean> {
    const { security } = await this.settings.getSettings();
    const since = iso(addSeconds(this.clock.now(), -LIMITS.loginAttemptWindowSeconds));
    const limit = security.max_login_attempts * this.limitScale;
    const [byAccount, byIp] = await Promise.all([
      this.attempts.countAccountFailures(accountKey, since),
      this.attempts.countIpFailures(ip, since),
    ]);
    return byAccount > limit || byIp > limit * LIMITS.loginAttemptIpFactor;
  }

  /**
   * Runs one sign-in try under the attempt limits. The try is recorded as a failure
   * BEFORE the limits are counted, so concurrent guesses all see each other and cannot
   * slip past the limit together; it is settled as a success or removed afterwards.
   */
  private async attempt(
    typed: string,
    client: ClientInfo,
    find: () => Promise<UserRow | undefined>,
    check: (user: UserRow | undefined) => Promise<UserRow>,
  ): Promise<LoginResult> {
    const ip = client.ip ?? 'unknown';
    const found = await find();
    const now = iso(this.clock.now());
    const attemptId = await this.attempts.insertPending(LoginService.attemptKey(found, typed), ip, now);
    if (await this.isLocked(LoginService.attemptKey(found, typed), ip)) {
      await this.attempts.remove(attemptId);
      throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { minutes: LIMITS.loginAttemptWindowSeconds / 60 });
    }
    let user: UserRow;
    try {
      user = await check(found);
    } catch (err) {
      // A wrong password or code counts; a disabled account or a server fault does not.
      if (!(err instanceof AppError) || err.code === 'ACCOUNT_DISABLED') await this.attempts.remove(attemptId);
      throw err;
    }
    await this.attempts.markSucceeded(attemptId);
    await this.users.update(user.id, { last_login_at: now });
    return this.sessions.startSession({ ...user, last_login_at: now }, client);
  }

  private async checkPassword(user: UserRow | undefined, password: string): Promise<UserRow> {
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
    if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
    if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    return user;
  }

  /** In the high-security mode only email + password + code is accepted. */
  private async assertStandardMode() {
    const { login } = await this.settings.getSettings();
    if (login.mode !== 'standard') throw new AppError('LOGIN_MODE_NOT_ALLOWED');
  }

  async loginWithPassword(body: LoginBody, client: ClientInfo): Promise<LoginResult> {
    await this.assertStandardMode();
    return this.attempt(
      body.account,
      client,
      () => this.findByAccount(body.account),
      (user) => this.checkPassword(user, body.password),
    );
  }

  async loginWithCode(body: LoginByCodeBody, client: ClientInfo): Promise<LoginResult> {
    await this.assertStandardMode();
    return this.attempt(
      body.email,
      client,
      () => this.users.findByEmail(body.email),
      async (user) => {
        if (!user) throw new AppError('CODE_INVALID');
        // The code first: without it, nobody learns whether the account is disabled.
        await this.codes.verify(body.email, body.code);
        if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
        return user;
      },
    );
  }

  /** High-security mode: password and emailed code together; the code is spent only when the password is right. */
  async loginWithEmailPasswordCode(body: LoginByEmailPasswordBody, client: ClientInfo): Promise<LoginResult> {
    // Accepted in both modes: it is strictly stronger than either standard way.
    return this.attempt(
      body.email,
      client,
      () => this.users.findByEmail(body.email),
      async (found) => {
        const user = await this.checkPassword(found, body.password);
        await this.codes.verify(body.email, body.code);
        return user;
      },
    );
  }
}
