import { LIMITS, type LoginResult, type RefreshResult, type SessionData } from '@aiplatform/contracts';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Credentials, type TestApp, createTestApp } from '../../../test/test-app.js';
import { sha256 } from '../../lib/auth/secrets.js';
import { SessionRepo } from './session.repo.js';

const ME = '/api/auth/me';
const REFRESH = '/api/auth/refresh';
const HOUR = 3_600_000;

describe('sessions', () => {
  let t: TestApp;
  let u: Credentials;
  let s: LoginResult;
  beforeEach(async () => {
    t = await createTestApp();
    ({ creds: u, session: s } = await t.signUp({ phone: '13700001111' }));
  });
  afterEach(async () => {
    await t.close();
  });

  describe('GET /api/auth/me', () => {
    it('answers the signed-in user with permissions and site config', async () => {
      const res = await t.get<SessionData>(ME, s.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.data.user).toMatchObject({
        id: u.id,
        email: u.email,
        username: u.username,
        phone: '13700001111',
        role: 'user',
        group_id: 1,
        group_name: 'default',
        credits_stats: { quota: 1000, used: 0, remaining: 1000, usageRate: 0, isExpired: false, expireAt: null },
      });
      expect(res.body.data.permissions).toEqual(['chat.use', 'file.upload']);
      expect(res.body.data.siteConfig).toEqual({
        name: '',
        logo: '',
        description: '',
        favicon: '',
        is_group_config: false,
      });
    });

    it('answers 401 UNAUTHORIZED without a token, with a bad token or a bad scheme', async () => {
      const cases: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not.a.jwt' },
        { authorization: 'Bearer ' },
        { authorization: `Token ${s.accessToken}` },
        { authorization: `Bearer ${s.accessToken.slice(0, -3)}abc` },
      ];
      for (const headers of cases) {
        const res = await t.request('GET', ME, { headers });
        expect(res.status, JSON.stringify(headers)).toBe(401);
        expect(res.body).toMatchObject({ success: false, error: 'UNAUTHORIZED' });
        expect(res.body.requestId).toBeTruthy();
      }
    });

    it('refuses a token signed with another key', async () => {
      const now = Math.floor(Date.now() / 1000);
      const forged = await new SignJWT({ userId: u.id, email: u.email, role: 'super_admin', sid: 'x' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(new TextEncoder().encode('some-other-secret'));
      const res = await t.get(ME, forged);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('UNAUTHORIZED');
    });

    it('answers 401 TOKEN_EXPIRED once 12 hours have passed', async () => {
      t.clock.advance(11 * HOUR + 59 * 60_000);
      expect((await t.get(ME, s.accessToken)).status).toBe(200);
      t.clock.advance(2 * 60_000);
      const res = await t.get(ME, s.accessToken, 'en-US');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('TOKEN_EXPIRED');
      expect(res.body.message).toBe('Your session has expired; please sign in again');
    });

    it('answers 403 ACCOUNT_DISABLED as soon as the account is disabled', async () => {
      await t.setUserStatus(u.id, 'inactive');
      const res = await t.get(ME, s.accessToken);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ACCOUNT_DISABLED');
    });

    it('answers 403 ACCOUNT_DISABLED to the access and refresh tokens of a session ended by disabling', async () => {
      const admin = await t.loginAsAdmin();
      const disabled = await t.put(`/api/admin/users/${u.id}/status`, { status: 'inactive' }, admin.accessToken);
      expect(disabled.status).toBe(200);
      // Its sessions were revoked, yet the reason is given rather than "sign in again".
      const me = await t.get(ME, s.accessToken, 'en-US');
      expect(me.status).toBe(403);
      expect(me.body.error).toBe('ACCOUNT_DISABLED');
      expect(me.body.message).toBe('This account is disabled; contact your administrator');
      const refreshed = await t.post(REFRESH, { refreshToken: s.refreshToken });
      expect(refreshed.status).toBe(403);
      expect(refreshed.body.error).toBe('ACCOUNT_DISABLED');
      // Enabled again, the ended session stays ended.
      expect((await t.put(`/api/admin/users/${u.id}/status`, { status: 'active' }, admin.accessToken)).status).toBe(
        200,
      );
      expect((await t.get(ME, s.accessToken)).body.error).toBe('UNAUTHORIZED');
      expect((await t.post(REFRESH, { refreshToken: s.refreshToken })).body.error).toBe('REFRESH_TOKEN_INVALID');
    });

    it('answers 401 once the account is deleted', async () => {
      await t.db.deleteFrom('users').where('id', '=', u.id).execute();
      expect((await t.get(ME, s.accessToken)).status).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('ends the session: the access and the refresh token stop working', async () => {
      const res = await t.post(`/api/auth/logout`, undefined, s.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const me = await t.get(ME, s.accessToken);
      expect(me.status).toBe(401);
      expect(me.body.error).toBe('UNAUTHORIZED');
      const refresh = await t.post(REFRESH, { refreshToken: s.refreshToken });
      expect(refresh.status).toBe(401);
      expect(refresh.body.error).toBe('REFRESH_TOKEN_INVALID');
    });

    it('leaves the other sessions of the user alive', async () => {
      const other = await t.tokensFor(u.email, u.password);
      await t.post('/api/auth/logout', undefined, s.accessToken);
      expect((await t.get(ME, other.accessToken)).status).toBe(200);
    });

    it('answers 200 without a token: signing out always succeeds', async () => {
      expect((await t.post('/api/auth/logout')).status).toBe(200);
      expect((await t.post('/api/auth/logout', undefined, 'not-a-token')).status).toBe(200);
    });

    it('ends the session by its refresh token when the access token has expired', async () => {
      t.clock.advance(13 * 3600 * 1000);
      expect((await t.get(ME, s.accessToken)).status).toBe(401);
      const res = await t.post('/api/auth/logout', { refreshToken: s.refreshToken }, s.accessToken);
      expect(res.status).toBe(200);
      const refresh = await t.post(REFRESH, { refreshToken: s.refreshToken });
      expect(refresh.status).toBe(401);
      expect(refresh.body.error).toBe('REFRESH_TOKEN_INVALID');
    });
  });

  describe('POST /api/auth/refresh', () => {
    it('rotates: answers new tokens that work, and the new refresh token refreshes again', async () => {
      t.clock.advance(1000);
      const res = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      expect(res.status).toBe(200);
      expect(res.body.data.expiresIn).toBe('12h');
      expect(res.body.data.refreshToken).not.toBe(s.refreshToken);
      expect(res.body.data.accessToken).not.toBe(s.accessToken);
      expect((await t.get(ME, res.body.data.accessToken)).status).toBe(200);

      const next = await t.post<RefreshResult>(REFRESH, { refreshToken: res.body.data.refreshToken });
      expect(next.status).toBe(200);
      expect((await t.get(ME, next.body.data.accessToken)).status).toBe(200);
    });

    it('gives a fresh 12 hours: an old access token expires while the refreshed one still works', async () => {
      t.clock.advance(11 * HOUR);
      const res = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      t.clock.advance(2 * HOUR);
      expect((await t.get(ME, s.accessToken)).body.error).toBe('TOKEN_EXPIRED');
      expect((await t.get(ME, res.body.data.accessToken)).status).toBe(200);
    });

    it('treats reuse of a spent token as theft: the whole session is revoked', async () => {
      const first = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      const second = await t.post<RefreshResult>(REFRESH, { refreshToken: first.body.data.refreshToken });
      expect(second.status).toBe(200);
      const newest = second.body.data;

      const replay = await t.post(REFRESH, { refreshToken: s.refreshToken });
      expect(replay.status).toBe(401);
      expect(replay.body.error).toBe('REFRESH_TOKEN_INVALID');

      expect((await t.post(REFRESH, { refreshToken: newest.refreshToken })).body.error).toBe('REFRESH_TOKEN_INVALID');
      expect((await t.get(ME, newest.accessToken)).status).toBe(401);
      expect((await t.get(ME, s.accessToken)).status).toBe(401);
    });

    it('does not touch the other sessions of the user on reuse', async () => {
      const other = await t.tokensFor(u.email, u.password);
      const first = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      expect((await t.post(REFRESH, { refreshToken: first.body.data.refreshToken })).status).toBe(200);
      // The first token's successor was used: presenting it again is a replay.
      expect((await t.post(REFRESH, { refreshToken: s.refreshToken })).body.error).toBe('REFRESH_TOKEN_INVALID');
      expect((await t.get(ME, first.body.data.accessToken)).status).toBe(401);
      expect((await t.get(ME, other.accessToken)).status).toBe(200);
      expect((await t.post(REFRESH, { refreshToken: other.refreshToken })).status).toBe(200);
    });

    const liveTokens = (userId = u.id) =>
      t.db
        .selectFrom('refresh_tokens')
        .innerJoin('auth_sessions', 'auth_sessions.id', 'refresh_tokens.session_id')
        .select('refresh_tokens.id')
        .where('auth_sessions.user_id', '=', userId)
        .where('auth_sessions.revoked_at', 'is', null)
        .where('used_at', 'is', null)
        .where('superseded_at', 'is', null)
        .execute();

    it('keeps the session and one live chain when the same token is refreshed twice at once', async () => {
      // Each of the two answers may be the one the client keeps; one of them was replaced by the other.
      for (const kept of [0, 1]) {
        const { creds, session } = await t.signUp();
        const twins = await Promise.all([
          t.post<RefreshResult>(REFRESH, { refreshToken: session.refreshToken }),
          t.post<RefreshResult>(REFRESH, { refreshToken: session.refreshToken }),
        ]);
        expect(twins.map((r) => r.status)).toEqual([200, 200]);
        expect(await liveTokens(creds.id)).toHaveLength(1);
        t.clock.advance(11 * HOUR);
        const next = await t.post<RefreshResult>(REFRESH, { refreshToken: twins[kept]!.body.data.refreshToken });
        expect(next.status, `answer ${kept} kept`).toBe(200);
        expect((await t.get(ME, next.body.data.accessToken)).status).toBe(200);
        const rotated = await t.post<RefreshResult>(REFRESH, { refreshToken: next.body.data.refreshToken });
        expect(rotated.status).toBe(200);
        expect(await liveTokens(creds.id)).toHaveLength(1);
      }
    });

    it('accepts a token presented moments after a replay of its parent replaced it', async () => {
      const first = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      t.clock.advance(HOUR);
      // Another tab of the same client still presented the first token; this one's request crossed it.
      expect((await t.post(REFRESH, { refreshToken: s.refreshToken })).status).toBe(200);
      t.clock.advance(LIMITS.refreshReplacedGraceSeconds * 1000 - 1000);
      const crossing = await t.post<RefreshResult>(REFRESH, { refreshToken: first.body.data.refreshToken });
      expect(crossing.status).toBe(200);
      expect((await t.get(ME, crossing.body.data.accessToken)).status).toBe(200);
      expect(await liveTokens()).toHaveLength(1);
    });

    it('never spends a token that a replay has replaced', async () => {
      const first = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      t.clock.advance(HOUR);
      expect((await t.post(REFRESH, { refreshToken: s.refreshToken })).status).toBe(200);
      const replaced = await t.db
        .selectFrom('refresh_tokens')
        .select(['id', 'session_id', 'superseded_at'])
        .where('token_hash', '=', sha256(first.body.data.refreshToken))
        .executeTakeFirstOrThrow();
      expect(replaced.superseded_at).not.toBeNull();
      // The spend of a refresh that read the token just before the replay replaced it.
      const spent = await new SessionRepo(t.db).issueSuccessor({
        parentId: replaced.id,
        sessionId: replaced.session_id,
        tokenHash: sha256('crossing'),
        expiresAt: new Date(t.clock.now().getTime() + HOUR).toISOString(),
        now: t.clock.now().toISOString(),
      });
      expect(spent).toBe(false);
      expect(await liveTokens()).toHaveLength(1);
    });

    it('keeps a client that always presents its first refresh token signed in', async () => {
      for (let i = 0; i < 5; i++) {
        t.clock.advance(11 * HOUR);
        const res = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
        expect(res.status, `refresh ${i + 1}`).toBe(200);
        expect((await t.get(ME, res.body.data.accessToken)).status).toBe(200);
        // Each answer replaced the unused successor before it: one live chain.
        expect(await liveTokens()).toHaveLength(1);
      }
    });

    it('revokes the session when an older token is replayed and the owner then presents the replaced one', async () => {
      const other = await t.tokensFor(u.email, u.password);
      const stolen = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      t.clock.advance(HOUR);
      const owner = await t.post<RefreshResult>(REFRESH, { refreshToken: stolen.body.data.refreshToken });
      expect(owner.status).toBe(200);
      // The owner has not refreshed since: the stolen token's successor is unused, so it is accepted…
      t.clock.advance(HOUR);
      const thief = await t.post<RefreshResult>(REFRESH, { refreshToken: stolen.body.data.refreshToken });
      expect(thief.status).toBe(200);
      // …and the owner's token, replaced by the thief's, proves two holders.
      t.clock.advance(HOUR);
      const ownerAgain = await t.post(REFRESH, { refreshToken: owner.body.data.refreshToken }, undefined, 'en-US');
      expect(ownerAgain.status).toBe(401);
      expect(ownerAgain.body.error).toBe('REFRESH_TOKEN_INVALID');
      expect((await t.post(REFRESH, { refreshToken: thief.body.data.refreshToken })).status).toBe(401);
      expect((await t.get(ME, thief.body.data.accessToken)).status).toBe(401);
      expect((await t.get(ME, owner.body.data.accessToken)).status).toBe(401);
      expect((await t.post(REFRESH, { refreshToken: stolen.body.data.refreshToken })).status).toBe(401);
      // The user's other sessions go on.
      expect((await t.get(ME, other.accessToken)).status).toBe(200);
      expect((await t.post(REFRESH, { refreshToken: other.refreshToken })).status).toBe(200);
    });

    it('lets a client move from its first token to rotation', async () => {
      await t.post(REFRESH, { refreshToken: s.refreshToken });
      const second = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      const third = await t.post<RefreshResult>(REFRESH, { refreshToken: second.body.data.refreshToken });
      expect(third.status).toBe(200);
      // The first token's live successor has now been used: presenting the first token is a replay.
      const replay = await t.post(REFRESH, { refreshToken: s.refreshToken });
      expect(replay.body.error).toBe('REFRESH_TOKEN_INVALID');
      expect((await t.get(ME, third.body.data.accessToken)).status).toBe(401);
    });

    it('revokes the session when a stolen first token is replayed after the thief rotated', async () => {
      const thief = await t.post<RefreshResult>(REFRESH, { refreshToken: s.refreshToken });
      const thiefNext = await t.post<RefreshResult>(REFRESH, { refreshToken: thief.body.data.refreshToken });
      expect(thiefNext.status).toBe(200);
      const owner = await t.post(REFRESH, { refreshToken: s.refreshToken }, undefined, 'en-US');
      expect(owner.status).toBe(401);
      expect(owner.body.error).toBe('REFRESH_TOKEN_INVALID');
      expect((await t.get(ME, thiefNext.body.data.accessToken)).status).toBe(401);
      expect((await t.post(REFRESH, { refreshToken: thiefNext.body.data.refreshToken })).status).toBe(401);
    });

    it('refuses an unknown token', async () => {
      const res = await t.post(REFRESH, { refreshToken: 'x'.repeat(43) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('REFRESH_TOKEN_INVALID');
    });

    it('refuses a refresh token older than 30 days', async () => {
      t.clock.advance(30 * 24 * HOUR + 1000);
      const res = await t.post(REFRESH, { refreshToken: s.refreshToken });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('REFRESH_TOKEN_INVALID');
    });

    it('refuses a disabled account', async () => {
      await t.setUserStatus(u.id, 'inactive');
      const res = await t.post(REFRESH, { refreshToken: s.refreshToken });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ACCOUNT_DISABLED');
    });

    it('stores refresh tokens hashed', async () => {
      const rows = await t.db.selectFrom('refresh_tokens').select('token_hash').execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.token_hash).not.toBe(s.refreshToken);
    });
  });
});
