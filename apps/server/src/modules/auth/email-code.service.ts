import crypto from 'node:crypto';
import { type EmailCodePurpose, type Language, LIMITS } from '@aiplatform/contracts';
import { type Clock, addSeconds, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import type { Mailer } from '../../lib/runtime/mailer.js';
import { hmac, timingSafeEqualHex } from '../../lib/auth/secrets.js';
import type { UsersRepo } from '../users/users.repo.js';
import { renderCodeMail } from './code-mail.js';
import type { EmailCodeRepo } from './email-code.repo.js';

/**
 * One-time sign-in codes: 6 digits, stored only as an HMAC, valid 5 minutes, single
 * use, at most 5 wrong tries, and at most one send per address per 60 seconds.
 */
export class EmailCodeService {
  constructor(
    private readonly repo: EmailCodeRepo,
    private readonly users: UsersRepo,
    private readonly mailer: Mailer,
    private readonly kv: KvStore,
    private readonly secret: string,
    private readonly clock: Clock,
  ) {}

  private hash(email: string, code: string) {
    return hmac(this.secret, `email-code:${email}:${code}`);
  }

  /** A sign-in code, only for an active account. */
  async send(email: string, lang: Language): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || user.status !== 'active') throw new AppError('EMAIL_NOT_REGISTERED');
    await this.deliver(email, lang, 'login');
  }

  /**
   * Stores and mails a fresh code, under the per-address cooldown. Callers decide whether
   * the address may get one (a sign-in needs an account, a sign-up needs none).
   */
  async deliver(email: string, lang: Language, purpose: EmailCodePurpose): Promise<void> {
    const cooldownKey = `email-code:${email}`;
    if (!(await this.kv.setIfAbsent(cooldownKey, LIMITS.emailCodeResendSeconds))) {
      throw new AppError('CODE_TOO_FREQUENT', { seconds: await this.kv.ttl(cooldownKey) });
    }
    const code = crypto
      .randomInt(0, 10 ** LIMITS.emailCodeLength)
      .toString()
      .padStart(LIMITS.emailCodeLength, '0');
    const now = this.clock.now();
    await this.repo.insert(email, this.hash(email, code), iso(addSeconds(now, LIMITS.emailCodeTtlSeconds)), iso(now));
    try {
      await this.mailer.send({ to: email, ...renderCodeMail(lang, code, purpose) });
    } catch (err) {
      // Let the user ask again at once when the mail did not leave.
      await this.kv.delete(cooldownKey);
      throw new AppError('MAIL_SEND_FAILED', {}, undefined, err);
    }
  }

  /** Checks and consumes the code; throws CODE_INVALID or CODE_EXPIRED. */
  async verify(email: string, code: string): Promise<void> {
    const row = await this.repo.findLatestOpen(email);
    const now = iso(this.clock.now());
    if (!row || row.expires_at <= now) throw new AppError('CODE_EXPIRED');
    if (!(await this.repo.takeTry(row.id, LIMITS.emailCodeMaxTries))) throw new AppError('CODE_EXPIRED');
    if (!timingSafeEqualHex(row.code_hash, this.hash(email, code))) throw new AppError('CODE_INVALID');
    if (!(await this.repo.consume(row.id, now))) throw new AppError('CODE_EXPIRED');
  }
}
