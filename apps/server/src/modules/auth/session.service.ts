import crypto from 'node:crypto';
import { LIMITS, type LoginResult, type RefreshResult } from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { type Clock, addSeconds, iso } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { randomToken, sha256 } from '../../lib/secrets.js';
import type { AccessTokens } from '../../lib/tokens.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ProfileService } from './profile.service.js';
import { idleTooLong } from './session-activity.js';
import type { SessionRepo } from './session.repo.js';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/**
 * Sessions: an access JWT naming its session, and a refresh token that is rotated on
 * every use. A spent refresh token presented again may be a thief's replay, so the whole
 * session (the token family) is revoked; the web client serialises refreshes across tabs
 * so that honest clients do not trip this.
 */
export class SessionService {
  constructor(
    private readonly repo: SessionRepo,
    private readonly tokens: AccessTokens,
    private readonly settings: SettingsService,
    private readonly profiles: ProfileService,
    private readonly clock: Clock,
  ) {}

  private async issueTokens(user: Pick<UserRow, 'id' | 'email' | 'role'>, sessionId: string): Promise<RefreshResult> {
    const now = this.clock.now();
    const { security } = await this.settings.getSettings();
    const accessToken = await this.tokens.sign(
      { userId: user.id, email: user.email, role: user.role, sid: sessionId },
      security.token_expires_in,
      now,
    );
    const refreshToken = randomToken(32);
    await this.repo.insertRefreshToken(
      sessionId,
      sha256(refreshToken),
      iso(addSeconds(now, LIMITS.refreshTokenTtlDays * 86400)),
      iso(now),
    );
    return { accessToken, refreshToken, expiresIn: security.token_expires_in };
  }

  /** Opens a new session for a user who just proved who they are. */
  async startSession(user: UserRow, client: ClientInfo): Promise<LoginResult> {
    const now = iso(this.clock.now());
    const sessionId = crypto.randomUUID();
    await this.repo.createSession({
      id: sessionId,
      userId: user.id,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      now,
    });
    const tokens = await this.issueTokens(user, sessionId);
    const session = await this.profiles.getSessionData(user.id);
    return { ...session, ...tokens };
  }

  async refresh(refreshToken: string): Promise<RefreshResult> {
    const now = this.clock.now();
    const row = await this.repo.findRefreshToken(sha256(refreshToken));
    if (!row || row.revoked_at) throw new AppError('REFRESH_TOKEN_INVALID');
    if (row.used_at || !(await this.repo.spendRefreshToken(row.id, iso(now)))) {
      await this.repo.revokeSession(row.session_id, iso(now));
      throw new AppError('REFRESH_TOKEN_INVALID');
    }
    if (row.expires_at <= iso(now)) throw new AppError('REFRESH_TOKEN_INVALID');
    // An idle session ends for its refresh token too, or a sleeping tab would wake it up again.
    const { security } = await this.settings.getSettings();
    if (idleTooLong(row.session_last_used_at, now, security.session_timeout_minutes)) {
      await this.repo.revokeSession(row.session_id, iso(now));
      throw new AppError('REFRESH_TOKEN_INVALID');
    }
    const user = await this.profiles.findActiveUser(row.user_id);
    await this.repo.touchSession(row.session_id, iso(now));
    return this.issueTokens(user, row.session_id);
  }

  /** Ends the session named by the access token, or else the one the refresh token belongs to. */
  async logout(sessionId: string | undefined, refreshToken: string | undefined): Promise<void> {
    const id =
      sessionId ?? (refreshToken ? (await this.repo.findRefreshToken(sha256(refreshToken)))?.session_id : undefined);
    if (id) await this.repo.revokeSession(id, iso(this.clock.now()));
  }
}
