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

/** Attempts at replacing a successor that a simultaneous refresh replaced first. */
const SUCCESSOR_ATTEMPTS = 3;

/**
 * Sessions: an access JWT naming its session, and a refresh token. Each refresh answers a
 * new refresh token (the successor of the one presented). A client may move on to it
 * (rotation) or keep presenting its first token, as clients written to the plain
 * `{ accessToken, expiresIn }` answer do. A token presented again is judged by its
 * successor: never used, the client is one that does not rotate, so the token is accepted
 * again and its fresh successor replaces the unused one (one live chain per session); used,
 * two parties hold the token (a thief's replay or the owner's), so the whole session is
 * revoked.
 */
export class SessionService {
  constructor(
    private readonly repo: SessionRepo,
    private readonly tokens: AccessTokens,
    private readonly settings: SettingsService,
    private readonly profiles: ProfileService,
    private readonly clock: Clock,
  ) {}

  private async signAccess(user: Pick<UserRow, 'id' | 'email' | 'role'>, sessionId: string) {
    const { security } = await this.settings.getSettings();
    const accessToken = await this.tokens.sign(
      { userId: user.id, email: user.email, role: user.role, sid: sessionId },
      security.token_expires_in,
      this.clock.now(),
    );
    return { accessToken, expiresIn: security.token_expires_in };
  }

  private newRefreshToken() {
    const now = this.clock.now();
    const token = randomToken(32);
    return { token, hash: sha256(token), expiresAt: iso(addSeconds(now, LIMITS.refreshTokenTtlDays * 86400)) };
  }

  private async issueTokens(user: Pick<UserRow, 'id' | 'email' | 'role'>, sessionId: string): Promise<RefreshResult> {
    const refresh = this.newRefreshToken();
    await this.repo.insertRefreshToken(sessionId, refresh.hash, refresh.expiresAt, iso(this.clock.now()));
    return { ...(await this.signAccess(user, sessionId)), refreshToken: refresh.token };
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
    // Disabling an account revokes its sessions: their refresh tokens say why.
    if (row?.revoked_at && (await this.profiles.isDisabled(row.user_id))) throw new AppError('ACCOUNT_DISABLED');
    // A superseded token was replaced before anyone used it: refused, nothing more to learn.
    if (!row || row.revoked_at || row.superseded_at) throw new AppError('REFRESH_TOKEN_INVALID');
    if (row.expires_at <= iso(now)) throw new AppError('REFRESH_TOKEN_INVALID');
    // An idle session ends for its refresh token too, or a sleeping tab would wake it up again.
    const { security } = await this.settings.getSettings();
    if (idleTooLong(row.session_last_used_at, now, security.session_timeout_minutes)) {
      await this.repo.revokeSession(row.session_id, iso(now));
      throw new AppError('REFRESH_TOKEN_INVALID');
    }
    const user = await this.profiles.findActiveUser(row.user_id);
    const refresh = this.newRefreshToken();
    const successor = {
      parentId: row.id,
      sessionId: row.session_id,
      tokenHash: refresh.hash,
      expiresAt: refresh.expiresAt,
    };
    let issued = !row.used_at && (await this.repo.issueSuccessor({ ...successor, now: iso(now) }));
    for (let attempt = 0; !issued && attempt < SUCCESSOR_ATTEMPTS; attempt++) {
      const current = await this.repo.currentSuccessor(row.id);
      // Its successor was used (or, on rows from before chains were kept, is unknown): two holders.
      if (!current || current.used_at) {
        await this.repo.revokeSession(row.session_id, iso(now));
        throw new AppError('REFRESH_TOKEN_INVALID');
      }
      issued = await this.repo.issueSuccessor({ ...successor, replacing: current.id, now: iso(now) });
    }
    if (!issued) throw new AppError('REFRESH_TOKEN_INVALID');
    await this.repo.touchSession(row.session_id, iso(now));
    return { ...(await this.signAccess(user, row.session_id)), refreshToken: refresh.token };
  }

  /** Ends the session named by the access token, or else the one the refresh token belongs to. */
  async logout(sessionId: string | undefined, refreshToken: string | undefined): Promise<void> {
    const id =
      sessionId ?? (refreshToken ? (await this.repo.findRefreshToken(sha256(refreshToken)))?.session_id : undefined);
    if (id) await this.repo.revokeSession(id, iso(this.clock.now()));
  }
}
