import type { LoginResult } from '@aiplatform/contracts';
import { randomToken, sha256 } from '../../lib/auth/secrets.js';
import { AppError } from '../../lib/http/errors.js';
import { type Clock, addSeconds, iso } from '../../lib/runtime/clock.js';
import type { ClientInfo } from '../auth/session.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { SessionStarter } from './external-sign-in.service.js';
import type { IdentityProvidersRepo } from './identity-providers.repo.js';
import { bindingHash } from './sso-states.js';
import type { SsoTicketsRepo } from './sso-tickets.repo.js';

/** How long the callback's one-time code may wait for the page that trades it. */
export const EXCHANGE_CODE_TTL_SECONDS = 60;

/**
 * The last step of a sign-in through a provider. The callback ends in a browser redirect,
 * which must not carry tokens (they would land in history and logs), so it carries a one-time
 * code in the address fragment instead; the page posts the code here and gets the session.
 * The code is random (32 bytes), stored hashed, good once and for 60 seconds.
 */
export class SsoExchangeService {
  constructor(
    private readonly tickets: SsoTicketsRepo,
    private readonly users: UsersRepo,
    private readonly providers: IdentityProvidersRepo,
    private readonly sessions: SessionStarter,
    private readonly clock: Clock,
  ) {}

  /** A new code for the account a callback just signed in, bound like the sign-in's state. */
  async issue(userId: number, providerId: number, binding_hash: string | null = null): Promise<string> {
    const code = randomToken(32);
    const expiresAt = iso(addSeconds(this.clock.now(), EXCHANGE_CODE_TTL_SECONDS));
    await this.tickets.insertExchangeCode(sha256(code), {
      user_id: userId,
      provider_id: providerId,
      expires_at: expiresAt,
      binding_hash,
    });
    return code;
  }

  /**
   * Spends the code for a session; a code used, expired or unknown is refused alike, and so
   * is one whose sign-in another browser tab started (its binding value is not presented).
   */
  async exchange(code: string, client: ClientInfo, binding?: string): Promise<LoginResult> {
    const row = await this.tickets.takeExchangeCode(sha256(code));
    const now = this.clock.now();
    if (!row || row.expires_at <= iso(now)) throw new AppError('SSO_STATE_INVALID');
    if (row.binding_hash !== bindingHash(binding)) throw new AppError('SSO_STATE_INVALID');
    // The account or the provider may have been switched off in the seconds since the callback.
    const provider = await this.providers.findById(row.provider_id);
    if (!provider || provider.enabled !== 1) throw new AppError('SSO_PROVIDER_DISABLED');
    const user = await this.users.findWithGroupById(row.user_id);
    if (!user || user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    return this.sessions.startSession(user, client);
  }
}
