import type { CreditHistoryResult, LoginResult, SessionData, User } from '@aiplatform/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Credentials, type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const PROFILE = '/api/auth/profile';
const PASSWORD = '/api/auth/password';
const HISTORY = '/api/auth/credit-history';

describe('account of the signed-in user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  let u: Credentials;
  let s: LoginResult;
  beforeEach(async () => {
    ({ creds: u, session: s } = await t.signUp({ phone: null }));
  });

  describe('PUT /api/auth/profile', () => {
    it('changes username and phone, keeps the email, and the new username signs in', async () => {
      const username = `New_${unique()}`;
      const res = await t.put<{ user: User }>(PROFILE, { username, phone: '13600001234' }, s.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.data.user).toMatchObject({ id: u.id, username, phone: '13600001234', email: u.email });
      const me = await t.get<SessionData>('/api/auth/me', s.accessToken);
      expect(me.body.data.user).toMatchObject({ username, phone: '13600001234', email: u.email });
      expect((await t.post('/api/auth/login', { account: username, password: u.password })).status).toBe(200);
      expect((await t.post('/api/auth/login', { account: '13600001234', password: u.password })).status).toBe(200);
      expect((await t.post('/api/auth/login', { account: u.username, password: u.password })).status).toBe(401);
    });

    it('clears the phone with null or an empty string', async () => {
      await t.put(PROFILE, { username: u.username, phone: '13600005678' }, s.accessToken);
      const cleared = await t.put<{ user: User }>(PROFILE, { username: u.username, phone: null }, s.accessToken);
      expect(cleared.body.data.user.phone).toBeNull();
      await t.put(PROFILE, { username: u.username, phone: '13600005678' }, s.accessToken);
      const empty = await t.put<{ user: User }>(PROFILE, { username: u.username, phone: '' }, s.accessToken);
      expect(empty.body.data.user.phone).toBeNull();
    });

    it('keeps the stored phone when the field is left out', async () => {
      await t.put(PROFILE, { username: u.username, phone: '13600007777' }, s.accessToken);
      const res = await t.put<{ user: User }>(PROFILE, { username: u.username }, s.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.data.user.phone).toBe('13600007777');
    });

    it('accepts the own username again, also in another letter case', async () => {
      expect((await t.put(PROFILE, { username: u.username, phone: null }, s.accessToken)).status).toBe(200);
      const res = await t.put<{ user: User }>(
        PROFILE,
        { username: u.username.toUpperCase(), phone: null },
        s.accessToken,
      );
      expect(res.status).toBe(200);
      expect(res.body.data.user.username).toBe(u.username.toUpperCase());
    });

    it('applies the username and phone rules', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ username: 'ab' }, '用户名长度为3-20个字符'],
        [{ username: 'x'.repeat(21) }, '用户名长度为3-20个字符'],
        [{ username: 'bad name' }, '用户名只能包含字母、数字、下划线和连字符'],
        [{ username: '' }, '请输入用户名'],
        [{ username: u.username, phone: '12345678901' }, '请输入有效的手机号码'],
        [{ username: u.username, phone: '1360000123' }, '请输入有效的手机号码'],
      ];
      for (const [body, message] of cases) {
        const res = await t.put(PROFILE, body, s.accessToken);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.data.errors, JSON.stringify(body)).toContain(message);
      }
      expect((await t.userRow(u.id)).username).toBe(u.username);
    });

    it('refuses a username or phone of another account with 409', async () => {
      const other = await t.registerUser({ phone: '13600009999' });
      const byName = await t.put(PROFILE, { username: other.username.toUpperCase(), phone: null }, s.accessToken);
      expect(byName.status).toBe(409);
      expect(byName.body.error).toBe('CONFLICT_USERNAME');
      const byPhone = await t.put(PROFILE, { username: u.username, phone: '13600009999' }, s.accessToken);
      expect(byPhone.status).toBe(409);
      expect(byPhone.body).toMatchObject({ error: 'CONFLICT_PHONE', message: '该手机号已被使用' });
      expect(await t.userRow(u.id)).toMatchObject({ username: u.username, phone: null });
    });

    it('never changes the email: the field is ignored like any field the call does not take', async () => {
      const res = await t.put(PROFILE, { username: u.username, phone: null, email: 'new@example.com' }, s.accessToken);
      expect(res.status).toBe(200);
      expect((await t.userRow(u.id)).email).toBe(u.email);
    });

    it('needs sign-in', async () => {
      expect((await t.put(PROFILE, { username: 'whoever', phone: null })).status).toBe(401);
    });
  });

  describe('PUT /api/auth/password', () => {
    it('refuses a wrong old password with 400 OLD_PASSWORD_WRONG and changes nothing', async () => {
      const res = await t.put(PASSWORD, { oldPassword: 'not-my-password', newPassword: 'brand-new-1' }, s.accessToken);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'OLD_PASSWORD_WRONG', message: '原密码错误' });
      await t.tokensFor(u.email, u.password);
      expect((await t.get('/api/auth/me', s.accessToken)).status).toBe(200);
    });

    it('applies the new-password rules', async () => {
      const short = await t.put(PASSWORD, { oldPassword: u.password, newPassword: '12345' }, s.accessToken);
      expect(short.body.data.errors).toContain('密码至少6个字符');
      const mismatch = await t.put(
        PASSWORD,
        { oldPassword: u.password, newPassword: '123456', confirmPassword: '1234567' },
        s.accessToken,
      );
      expect(mismatch.body.data.errors).toContain('两次输入的密码不一致');
      const missing = await t.put(PASSWORD, { newPassword: '123456' }, s.accessToken);
      expect(missing.body.data.errors).toContain('请输入密码');
      await t.tokensFor(u.email, u.password);
    });

    it('changes the password, signs out the other sessions and keeps the current one', async () => {
      const other = await t.tokensFor(u.email, u.password);
      const res = await t.put(
        PASSWORD,
        { oldPassword: u.password, newPassword: 'brand-new-1', confirmPassword: 'brand-new-1' },
        s.accessToken,
      );
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);

      expect((await t.get('/api/auth/me', s.accessToken)).status).toBe(200);
      expect((await t.post('/api/auth/refresh', { refreshToken: s.refreshToken })).status).toBe(200);
      expect((await t.get('/api/auth/me', other.accessToken)).status).toBe(401);
      expect((await t.post('/api/auth/refresh', { refreshToken: other.refreshToken })).body.error).toBe(
        'REFRESH_TOKEN_INVALID',
      );

      expect((await t.post('/api/auth/login', { account: u.email, password: u.password })).status).toBe(401);
      expect((await t.post('/api/auth/login', { account: u.email, password: 'brand-new-1' })).status).toBe(200);
    });

    it('needs sign-in', async () => {
      expect((await t.put(PASSWORD, { oldPassword: 'a', newPassword: '123456' })).status).toBe(401);
    });

    const change = (oldPassword: string, token: string, lang?: string) =>
      t.put(PASSWORD, { oldPassword, newPassword: 'brand-new-1', confirmPassword: 'brand-new-1' }, token, lang);

    it('after 5 wrong current passwords from any of its sessions refuses the account for 15 minutes', async () => {
      const other = await t.tokensFor(u.email, u.password);
      const wrong = await Promise.all(
        Array.from({ length: 8 }, (_, i) => change(`guess-${i}`, i % 2 ? other.accessToken : s.accessToken)),
      );
      // Simultaneous guesses cannot slip past the limit together.
      expect(wrong.filter((r) => r.body.error === 'OLD_PASSWORD_WRONG')).toHaveLength(5);
      expect(wrong.filter((r) => r.body.error === 'TOO_MANY_PASSWORD_ATTEMPTS')).toHaveLength(3);

      const refused = await change(u.password, s.accessToken, 'en-US');
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe('The current password was wrong too many times; try again in 15 minutes');
      expect((await change(u.password, other.accessToken)).body.message).toBe('原密码错误次数过多，请 15 分钟后再试');
      // Nothing changed: the old password still signs in.
      await t.tokensFor(u.email, u.password);

      t.clock.advance(15 * 60_000 + 1000);
      expect((await change(u.password, s.accessToken)).status).toBe(200);
    });

    it('starts the count again after a success', async () => {
      for (let i = 0; i < 4; i += 1) expect((await change('guess', s.accessToken)).status).toBe(400);
      expect((await change(u.password, s.accessToken)).status).toBe(200);
      const back = (newPassword: string, oldPassword: string) =>
        t.put(PASSWORD, { oldPassword, newPassword, confirmPassword: newPassword }, s.accessToken);
      for (let i = 0; i < 4; i += 1) expect((await back(u.password, 'guess')).status).toBe(400);
      expect((await back(u.password, 'brand-new-1')).status).toBe(200);
    });
  });

  describe('GET /api/auth/credit-history', () => {
    it('lists the registration grant with the spec shape', async () => {
      const res = await t.get<CreditHistoryResult>(HISTORY, s.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.data.pagination).toEqual({ page: 1, limit: 20, total: 1 });
      expect(res.body.data.history).toEqual([
        {
          id: expect.any(Number) as number,
          created_at: expect.any(String) as string,
          transaction_type: 'system_reward',
          amount: 1000,
          balance_after: 1000,
          description: '注册赠送的初始积分',
          conversation_id: null,
          conversation_title: null,
          model_name: null,
          model_display_name: null,
        },
      ]);
      const english = await t.request<CreditHistoryResult>('GET', HISTORY, { token: s.accessToken, lang: 'en-US' });
      expect(english.body.data.history[0]?.description).toBe('Initial credits on registration');
    });

    it('pages newest first and shows only the own entries', async () => {
      const now = new Date().toISOString();
      const rows = Array.from({ length: 24 }, (_, i) => ({
        user_id: u.id,
        transaction_type: 'admin_add',
        amount: i + 1,
        balance_after: 1000 + ((i + 1) * (i + 2)) / 2,
        description: `grant ${i + 1}`,
        created_at: now,
      }));
      await t.db.insertInto('credit_transactions').values(rows).execute();
      const other = await t.registerUser();

      const page1 = await t.get<CreditHistoryResult>(`${HISTORY}?page=1&limit=10`, s.accessToken);
      expect(page1.body.data.pagination).toEqual({ page: 1, limit: 10, total: 25 });
      expect(page1.body.data.history.map((h) => h.description)).toEqual(
        Array.from({ length: 10 }, (_, i) => `grant ${24 - i}`),
      );

      const page3 = await t.get<CreditHistoryResult>(`${HISTORY}?page=3&limit=10`, s.accessToken);
      expect(page3.body.data.history.map((h) => h.amount)).toEqual([4, 3, 2, 1, 1000]);
      expect(page3.body.data.history.at(-1)?.transaction_type).toBe('system_reward');

      const beyond = await t.get<CreditHistoryResult>(`${HISTORY}?page=4&limit=10`, s.accessToken);
      expect(beyond.body.data.history).toEqual([]);
      expect(beyond.body.data.pagination.total).toBe(25);

      const byDefault = await t.get<CreditHistoryResult>(HISTORY, s.accessToken);
      expect(byDefault.body.data.history).toHaveLength(20);
      const max = await t.get<CreditHistoryResult>(`${HISTORY}?limit=100`, s.accessToken);
      expect(max.body.data.history).toHaveLength(25);
      expect(max.body.data.history.map((h) => h.id)).not.toContain(
        (
          await t.db
            .selectFrom('credit_transactions')
            .select('id')
            .where('user_id', '=', other.id)
            .executeTakeFirstOrThrow()
        ).id,
      );
    });

    it('refuses a limit below 1 and clamps one above 100', async () => {
      for (const limit of [0, -5]) {
        const res = await t.get(`${HISTORY}?limit=${limit}`, s.accessToken);
        expect(res.status, String(limit)).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
      }
      expect((await t.get(`${HISTORY}?limit=1`, s.accessToken)).status).toBe(200);
      const clamped = await t.get<{ pagination: { limit: number } }>(`${HISTORY}?limit=101`, s.accessToken);
      expect(clamped.status).toBe(200);
      expect(clamped.body.data.pagination.limit).toBe(100);
    });

    it('needs sign-in', async () => {
      expect((await t.get(HISTORY)).status).toBe(401);
    });
  });
});
