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

  private async assertNotLocked(accountKey: string, ip: string): Promise<void> {
    const { security } = await this.settings.getSettings();
    const since = iso(addSeconds(this.clock.now(), -LIMITS.loginAttemptWindowSeconds));
    const limit = security.max_login_attempts * this.limitScale;
    const [byAccount, byIp] = await Promise.all([
      this.attempts.countAccountFailures(accountKey, since),
      this.attempts.countIpFailures(ip, since),
    ]);
    if (byAccount >= limit || byIp >= limit * LIMITS.loginAttemptIpFactor) {
      throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { minutes: LIMITS.loginAttemptWindowSeconds / 60 });
    }
  }

  /** Runs one sign-in try, recording its outcome for the attempt limits. */
  private async attempt(accountKey: string, client: ClientInfo, check: () => Promise<UserRow>): Promise<LoginResult> {
    const ip = client.ip ?? 'unknown';
    await this.assertNotLocked(accountKey, ip);
    const now = iso(this.clock.now());
    let user: UserRow;
    try {
      user = await check();
    } catch (err) {
      if (err instanceof AppError && err.code !== 'ACCOUNT_DISABLED')
        await this.attempts.record(accountKey, ip, false, now);
      throw err;
    }
    await this.attempts.record(accountKey, ip, true, now);
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
    // Lower-casing can lengthen text (e.g. 'İ' becomes two characters); the key column holds 254.
    const key = body.account.toLowerCase().slice(0, LIMITS.emailMax);
    return this.attempt(key, client, async () =>
      this.checkPassword(await this.findByAccount(body.account), body.password),
    );
  }

  async loginWithCode(body: LoginByCodeBody, client: ClientInfo): Promise<LoginResult> {
    await this.assertStandardMode();
    return this.attempt(body.email, client, async () => {
      const user = await this.users.findByEmail(body.email);
      if (!user) throw new AppError('CODE_INVALID');
      if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
      await this.codes.verify(body.email, body.code);
      return user;
    });
  }

  /** High-security mode: password and emailed code together; the code is spent only when the password is right. */
  async loginWithEmailPasswordCode(body: LoginByEmailPasswordBody, client: ClientInfo): Promise<LoginResult> {
    // Accepted in both modes: it is strictly stronger than either standard way.
    return this.attempt(body.email, client, async () => {
      const user = await this.checkPassword(await this.users.findByEmail(body.email), body.password);
      await this.codes.verify(body.email, body.code);
      return user;
    });
  }
}
