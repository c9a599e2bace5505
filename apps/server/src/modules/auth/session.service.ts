import crypto from 'node:crypto';
import { LIMITS, type LoginResult, type RefreshResult } from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { type Clock, addSeconds, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { randomToken, sha256 } from '../../lib/auth/secrets.js';
import type { AccessTokens } from '../../lib/auth/tokens.js';
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

const GRACE_MS = LIMITS.refreshReplacedGraceSeconds * 1000;

type TokenRow = NonNullable<Awaited<ReturnType<SessionRepo['findRefreshToken']>>>;

/**
 * A replaced token whose replacement belongs to one client racing itself: its parent was
 * presented again moments after it was issued (two refreshes of the same token at once), or
 * it is presented moments after being replaced (its request crossed the one replacing it).
 */
function replacedByTwin(row: TokenRow, now: Date): boolean {
  if (!row.superseded_at || row.parent_id === null) return false;
  const replaced = Date.parse(row.superseded_at);
  return replaced - Date.parse(row.created_at) <= GRACE_MS || now.getTime() - replaced <= GRACE_MS;
}

/**
 * Sessions: an access JWT naming its session, and a refresh token. Each refresh answers a
 * new refresh token (the successor of the one presented). A client may move on to it
 * (rotation) or keep presenting its first token, as clients written to the plain
 * `{ accessToken, expiresIn }` answer do. A token presented again is judged by its
 * successor: never used, the client is one that does not rotate, so the token is accepted
 * again and its fresh successor replaces the unused one (one live chain per session); used,
 * two parties hold the token (a thief's replay or the owner's), so the whole session is
 * revoked. A replaced token presented proves two holders as well (a rotating owner whose
 * unused token a thief's replay of an older one replaced), and revokes the session too,
 * unless the replacement was one client's simultaneous refreshes (`replacedByTwin`): then it
 * counts as the token it was issued for.
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
    const tokenHash = sha256(refreshToken);
    const row = await this.repo.findRefreshToken(tokenHash);
    // Disabling an account revokes its sessions: their refresh tokens say why.
    if (row?.revoked_at && (await this.profiles.isDisabled(row.user_id))) throw new AppError('ACCOUNT_DISABLED');
    if (!row || row.revoked_at) throw new AppError('REFRESH_TOKEN_INVALID');
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
      sessionId: row.session_id,
      tokenHash: refresh.hash,
      expiresAt: refresh.expiresAt,
      now: iso(now),
    };
    const twoHolders = async () => {
      await this.repo.revokeSession(row.session_id, iso(now));
      return new AppError('REFRESH_TOKEN_INVALID');
    };
    let token: TokenRow | undefined = row;
    for (let attempt = 0; ; attempt++) {
      if (!token || attempt > SUCCESSOR_ATTEMPTS) throw new AppError('REFRESH_TOKEN_INVALID');
      if (token.superseded_at && !replacedByTwin(token, now)) throw await twoHolders();
      if (!token.used_at && !token.superseded_at) {
        if (await this.repo.issueSuccessor({ ...successor, parentId: token.id })) break;
      } else {
        // Presented again (or a twin standing for its parent): judged by the live successor.
        const parentId = token.superseded_at ? token.parent_id! : token.id;
        const current = await this.repo.currentSuccessor(parentId);
        // Its successor was used (or, on rows from before chains were kept, is unknown): two holders.
        if (!current || current.used_at) throw await twoHolders();
        if (await this.repo.issueSuccessor({ ...successor, parentId, replacing: current.id })) break;
      }
      // A simultaneous refresh took the step first: look at the token as it is now.
      token = await this.repo.findRefreshToken(tokenHash);
    }
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
