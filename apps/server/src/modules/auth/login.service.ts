import {
  type ErrorCode,
  LIMITS,
  type LoginBody,
  type LoginByCodeBody,
  type LoginByEmailPasswordBody,
  type LoginResult,
  PHONE_PATTERN,
} from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { dummyPasswordHash, verifyPassword } from '../../lib/auth/passwords.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { DirectorySignIn } from './directory-sign-in.js';
import type { EmailCodeService } from './email-code.service.js';
import type { AdmittedTry, LoginThrottle } from './login-throttle.js';
import type { ClientInfo, SessionService } from './session.service.js';

/**
 * Refusals that say nothing about the password or code tried, so they do not count as failed
 * guesses: the account is disabled, this way of signing in is off, the directory is down, or
 * the directory accepted the password but the account cannot be used (not provisioned, an
 * email held by an account it may not link to).
 */
const NOT_A_GUESS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ACCOUNT_DISABLED',
  'LOCAL_PASSWORD_DISABLED',
  'DIRECTORY_UNAVAILABLE',
  'SSO_PROVIDER_DISABLED',
  'SSO_NOT_PROVISIONED',
  'SSO_EMAIL_CONFLICT',
]);

/**
 * The three ways to sign in, each under the failed-attempt rules of LoginThrottle
 * (per account and client address, per address, and a pause of password sign-in for an
 * account guessed at from many addresses).
 */
export class LoginService {
  constructor(
    private readonly users: UsersRepo,
    private readonly throttle: LoginThrottle,
    private readonly codes: EmailCodeService,
    private readonly sessions: SessionService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  /** Set once the identity module is built (it is built after this one, and needs its sessions). */
  private directories: DirectorySignIn | undefined;

  /** Lets a password sign-in naming a provider be checked by that provider's directory. */
  useDirectorySignIn(directories: DirectorySignIn): void {
    this.directories = directories;
  }

  private findByAccount(account: string): Promise<UserRow | undefined> {
    if (account.includes('@')) return this.users.findByEmail(account);
    if (PHONE_PATTERN.test(account)) return this.users.findByPhone(account);
    return this.users.findByUsername(account);
  }

  /**
   * The failures count per account, however it was named (email, username or phone).
   * Lower-casing can lengthen text ('İ' becomes two characters); the key column holds 254.
   */
  private static attemptKey(user: UserRow | undefined, typed: string): string {
    return user ? `user:${user.id}` : `account:${typed.toLowerCase().slice(0, LIMITS.emailMax - 8)}`;
  }

  /**
   * Runs one sign-in try under the attempt rules: admitted (and recorded as a failure)
   * first, then settled as a success, or removed when it was no guess.
   */
  private async attempt(
    typed: string,
    client: ClientInfo,
    opts: { emailProof: boolean },
    find: () => Promise<UserRow | undefined>,
    check: (user: UserRow | undefined, admitted: AdmittedTry) => Promise<UserRow>,
  ): Promise<LoginResult> {
    const found = await find();
    const admitted = await this.throttle.admit(LoginService.attemptKey(found, typed), client.ip, opts);
    let user: UserRow;
    try {
      user = await check(found, admitted);
    } catch (err) {
      // A wrong password or code counts; a disabled account, a refused way of signing in or a server fault does not.
      if (!(err instanceof AppError) || NOT_A_GUESS.has(err.code)) await this.throttle.discard(admitted);
      throw err;
    }
    await this.throttle.succeeded(admitted);
    const now = iso(this.clock.now());
    await this.users.update(user.id, { last_login_at: now });
    return this.sessions.startSession({ ...user, last_login_at: now }, client);
  }

  /**
   * With `login.local_password: super_admin_only` the organisation signs in through its
   * identity provider; super administrators keep their password so a broken provider never
   * locks the site out. Refused before the password is checked: an answer that differed with
   * the password would let it be guessed through this form still.
   */
  private async assertLocalPasswordAllowed(user: UserRow | undefined): Promise<void> {
    const { login } = await this.settings.getSettings();
    if (login.local_password === 'super_admin_only' && user?.role !== 'super_admin') {
      throw new AppError('LOCAL_PASSWORD_DISABLED');
    }
  }

  private async checkPassword(user: UserRow | undefined, password: string): Promise<UserRow> {
    await this.assertLocalPasswordAllowed(user);
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
    if (body.provider !== undefined) return this.loginWithDirectory(body.provider, body, client);
    return this.attempt(
      body.account,
      client,
      { emailProof: false },
      () => this.findByAccount(body.account),
      (user) => this.checkPassword(user, body.password),
    );
  }

  /**
   * The account and password checked by an LDAP provider's directory, under the same attempt
   * rules as a local password. Tries are counted by the name typed, as for a local name that
   * matches no account: which account the directory leads to is only known once it answered.
   * Not affected by `login.local_password`: the directory's password is not a local one.
   */
  private loginWithDirectory(slug: string, body: LoginBody, client: ClientInfo): Promise<LoginResult> {
    return this.attempt(
      body.account,
      client,
      { emailProof: false },
      () => Promise.resolve(undefined),
      () => {
        if (!this.directories) throw new AppError('SSO_PROVIDER_DISABLED');
        return this.directories.verify(slug, body.account, body.password);
      },
    );
  }

  async loginWithCode(body: LoginByCodeBody, client: ClientInfo): Promise<LoginResult> {
    await this.assertStandardMode();
    return this.attempt(
      body.email,
      client,
      { emailProof: true },
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

  /**
   * High-security mode: password and emailed code together; the code is spent only when
   * the password is right. While password sign-in is paused for the account the code goes
   * first, so that without it a try reveals nothing about the password.
   */
  async loginWithEmailPasswordCode(body: LoginByEmailPasswordBody, client: ClientInfo): Promise<LoginResult> {
    // Accepted in both modes: it is strictly stronger than either standard way.
    return this.attempt(
      body.email,
      client,
      { emailProof: true },
      () => this.users.findByEmail(body.email),
      async (found, admitted) => {
        await this.assertLocalPasswordAllowed(found);
        if (admitted.paused) await this.codes.verify(body.email, body.code);
        const user = await this.checkPassword(found, body.password);
        if (!admitted.paused) await this.codes.verify(body.email, body.code);
        return user;
      },
    );
  }
}
