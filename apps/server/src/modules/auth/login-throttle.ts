import { LIMITS } from '@aiplatform/contracts';
import { type Clock, addSeconds, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import { type TrustedNetworks, clientKey } from '../../lib/auth/trusted-networks.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { LoginAttemptsRepo } from './login-attempts.repo.js';

/**
 * Seconds a try must wait after the latest failure of its (account, address) pair, given
 * how many failures that pair has: none below the limit, then 1 s, 2 s, 4 s … up to the cap.
 */
export function loginDelaySeconds(failures: number, limit: number): number {
  if (failures < limit) return 0;
  return Math.min(2 ** Math.min(failures - limit, 30), LIMITS.loginDelayMaxSeconds);
}

export interface ThrottleDeps {
  attempts: LoginAttemptsRepo;
  settings: SettingsService;
  kv: KvStore;
  clock: Clock;
  trusted: TrustedNetworks;
  /** RATE_LIMIT_SCALE: multiplies the configured failure limit. */
  limitScale: number;
}

/** One admitted try, to be settled by the caller. */
export interface AdmittedTry {
  id: number;
  accountKey: string;
  /**
   * Password sign-in is paused for the account (only ever set on a try with an emailed
   * code): the code must be checked before anything else, so the try tells nothing
   * about the password without it.
   */
  paused: boolean;
}

/**
 * Who may try to sign in, and when. Failures are counted per (account, client address)
 * pair, so a stranger guessing from elsewhere never delays the owner:
 *
 * - pair: up to `security.max_login_attempts` failures in 15 minutes freely, then each
 *   further try waits 1 s, 2 s, 4 s … (capped) after the previous failure;
 * - address: ten times that limit over all accounts blocks the address for the window
 *   (a whole office may share one address);
 * - account: twenty times that limit from all addresses together pauses password
 *   sign-in for the account until someone signs in with an emailed code (or a day
 *   passes), so a crowd of addresses cannot guess on forever.
 *
 * Addresses in TRUSTED_NETWORKS skip the address and account rules (only the pair delays
 * apply), so an administrator is never locked out from there. A name that matches no
 * account is treated exactly like one that does, so the answers never tell them apart.
 */
export class LoginThrottle {
  constructor(private readonly d: ThrottleDeps) {}

  private static lockKey(accountKey: string): string {
    return `login-lock:${accountKey}`;
  }

  /**
   * Records the try as a failure BEFORE the rules are counted, so concurrent guesses all
   * see each other and cannot slip past a limit together; throws the refusal (the try then
   * does not count). `emailProof`: the try carries an emailed code, which is how a paused
   * account is opened again.
   */
  async admit(accountKey: string, ip: string | null | undefined, opts: { emailProof: boolean }): Promise<AdmittedTry> {
    const { attempts, clock } = this.d;
    const address = clientKey(ip);
    const now = clock.now();
    const id = await attempts.insertPending(accountKey, address, iso(now));
    try {
      const paused = await this.check(accountKey, address, this.d.trusted.has(ip), opts.emailProof, id, now);
      return { id, accountKey, paused };
    } catch (err) {
      await attempts.remove(id);
      throw err;
    }
  }

  private async check(
    accountKey: string,
    address: string,
    trusted: boolean,
    emailProof: boolean,
    id: number,
    now: Date,
  ): Promise<boolean> {
    const { security } = await this.d.settings.getSettings();
    const limit = Math.max(1, Math.round(security.max_login_attempts * this.d.limitScale));
    const since = iso(addSeconds(now, -LIMITS.loginAttemptWindowSeconds));
    let paused = false;
    if (!trusted) {
      const byAddress = await this.d.attempts.countIpFailures(address, since);
      if (byAddress > limit * LIMITS.loginAttemptIpFactor) {
        throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { minutes: LIMITS.loginAttemptWindowSeconds / 60 });
      }
      paused = await this.accountPaused(accountKey, since, limit);
      if (paused && !emailProof) throw new AppError('PASSWORD_LOGIN_LOCKED');
    }
    const pair = await this.d.attempts.pairFailures(accountKey, address, since, id);
    const wait = loginDelaySeconds(pair.count, limit);
    if (wait > 0 && pair.last) {
      const left = (new Date(pair.last).getTime() + wait * 1000 - now.getTime()) / 1000;
      if (left > 0) throw new AppError('LOGIN_DELAYED', { seconds: Math.ceil(left) }, { retryAfter: Math.ceil(left) });
    }
    return paused;
  }

  /** Whether password sign-in is paused for the account; pauses it when the failures from all addresses pass the limit. */
  private async accountPaused(accountKey: string, since: string, limit: number): Promise<boolean> {
    const key = LoginThrottle.lockKey(accountKey);
    if ((await this.d.kv.ttl(key)) > 0) return true;
    const failures = await this.d.attempts.countAccountFailures(accountKey, since);
    if (failures <= limit * LIMITS.loginAccountLockFactor) return false;
    await this.d.kv.setIfAbsent(key, LIMITS.loginAccountLockSeconds);
    return true;
  }

  /** The try signed in: the pair's and the account's counts start again, a pause ends. */
  async succeeded(t: AdmittedTry): Promise<void> {
    await this.d.attempts.markSucceeded(t.id);
    await this.d.kv.delete(LoginThrottle.lockKey(t.accountKey));
  }

  /** The try was not a guess (a disabled account, a server fault): it does not count. */
  async discard(t: AdmittedTry): Promise<void> {
    await this.d.attempts.remove(t.id);
  }
}
