import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const REGISTER = '/api/auth/register';

interface Registered {
  id: number;
  username: string;
  email: string;
}

describe('POST /api/auth/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const fresh = () => {
    const s = unique();
    return { email: `r_${s}@example.com`, username: `r_${s}`, password: 'secret123', confirmPassword: 'secret123' };
  };
  const countUsers = async () => (await t.db.selectFrom('users').select('id').execute()).length;

  it('creates an active user and answers 201 without tokens', async () => {
    const body = { ...fresh(), email: `Mixed_${unique()}@Example.COM`, phone: '13512345678' };
    const res = await t.post<Registered>(REGISTER, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, code: 201, message: '创建成功' });
    expect(res.body.data).toEqual({
      id: expect.any(Number) as number,
      username: body.username,
      email: body.email.toLowerCase(),
    });
    expect(res.text).not.toMatch(/accessToken|refreshToken/);

    const row = await t.userRow(res.body.data.id);
    expect(row).toMatchObject({
      email: body.email.toLowerCase(),
      phone: '13512345678',
      role: 'user',
      status: 'active',
    });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    // The new password signs in.
    expect((await t.post(`/api/auth/login`, { account: body.username, password: 'secret123' })).status).toBe(200);
  });

  it('grants the defaults: 1000 credits, 10000 tokens, group 1, written to the ledger', async () => {
    const res = await t.post<Registered>(REGISTER, fresh());
    const row = await t.userRow(res.body.data.id);
    expect(row).toMatchObject({ credits_quota: 1000, credits_used: 0, token_quota: 10000, token_used: 0, group_id: 1 });
    const ledger = await t.db.selectFrom('credit_transactions').selectAll().where('user_id', '=', row.id).execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ transaction_type: 'system_reward', amount: 1000, balance_after: 1000 });
    expect(await t.ledgerSum(row.id)).toBe(row.credits_quota - row.credits_used);
  });

  it('follows the configured defaults', async () => {
    try {
      await t.setSetting('user', { default_credits: 42, default_tokens: 7, default_group_id: 1 });
      const a = await t.userRow((await t.post<Registered>(REGISTER, fresh())).body.data.id);
      expect(a).toMatchObject({ credits_quota: 42, token_quota: 7, group_id: 1 });
      expect(await t.ledgerSum(a.id)).toBe(42);

      await t.setSetting('user', { default_credits: 0, default_group_id: 99 });
      const b = await t.userRow((await t.post<Registered>(REGISTER, fresh())).body.data.id);
      expect(b).toMatchObject({ credits_quota: 0, group_id: null });
      expect(await t.ledgerSum(b.id)).toBe(0);
    } finally {
      await t.setSetting('user', {});
    }
  });

  describe('validation, each rule reported in data.errors', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['email missing', { email: undefined }, '请输入邮箱地址'],
      ['email empty', { email: '' }, '请输入邮箱地址'],
      ['email without domain dot', { email: 'a@b' }, '邮箱格式不正确'],
      ['email with a space', { email: 'a b@example.com' }, '邮箱格式不正确'],
      ['email without @', { email: 'example.com' }, '邮箱格式不正确'],
      ['username missing', { username: undefined }, '请输入用户名'],
      ['username of 2 characters', { username: 'ab' }, '用户名长度为3-20个字符'],
      ['username of 21 characters', { username: 'a'.repeat(21) }, '用户名长度为3-20个字符'],
      ['username with a space', { username: 'bad name' }, '用户名只能包含字母、数字、下划线和连字符'],
      ['username with punctuation', { username: 'bad!name' }, '用户名只能包含字母、数字、下划线和连字符'],
      ['username in Chinese', { username: '中文用户名' }, '用户名只能包含字母、数字、下划线和连字符'],
      ['phone starting 12', { phone: '12345678901' }, '请输入有效的手机号码'],
      ['phone of 10 digits', { phone: '1391234567' }, '请输入有效的手机号码'],
      ['phone of 12 digits', { phone: '139123456789' }, '请输入有效的手机号码'],
      ['phone starting 2', { phone: '23912345678' }, '请输入有效的手机号码'],
      ['phone with a country code', { phone: '+8613912345678' }, '请输入有效的手机号码'],
      ['password missing', { password: undefined, confirmPassword: 'secret123' }, '请输入密码'],
      ['password of 5 characters', { password: '12345', confirmPassword: '12345' }, '密码至少6个字符'],
      [
        'password over 128 characters',
        { password: 'p'.repeat(129), confirmPassword: 'p'.repeat(129) },
        '密码不能超过128个字符',
      ],
      ['confirmPassword missing', { confirmPassword: undefined }, '请确认密码'],
      ['confirmPassword different', { confirmPassword: 'secret124' }, '两次输入的密码不一致'],
    ];

    it.each(cases)('%s', async (_name, patch, message) => {
      const before = await countUsers();
      const res = await t.post(REGISTER, { ...fresh(), ...patch });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      expect(res.body.data.errors).toContain(message);
      expect(await countUsers()).toBe(before);
    });

    it('reports every broken field at once, in English when asked', async () => {
      const res = await t.post(
        REGISTER,
        { email: 'x', username: 'a', password: '1', confirmPassword: '1', phone: '1' },
        undefined,
        'en-US',
      );
      expect(res.body.data.errors).toEqual(
        expect.arrayContaining([
          'Invalid email format',
          'Username must be 3-20 characters',
          'Please enter a valid mobile number',
          'Password must be at least 6 characters',
        ]),
      );
    });

    it('accepts the edges: 3 and 20 characters, underscores and hyphens, no phone or an empty one', async () => {
      const s = unique();
      const three = await t.post<Registered>(REGISTER, { ...fresh(), username: `a${s}`.slice(0, 3) });
      expect(three.status).toBe(201);
      const twenty = await t.post<Registered>(REGISTER, { ...fresh(), username: `A-b_${s}`.padEnd(20, 'x') });
      expect(twenty.status).toBe(201);
      const emptyPhone = await t.post<Registered>(REGISTER, { ...fresh(), phone: '' });
      expect(emptyPhone.status).toBe(201);
      expect((await t.userRow(emptyPhone.body.data.id)).phone).toBeNull();
      expect((await t.post(REGISTER, { ...fresh(), phone: null })).status).toBe(201);
      expect((await t.post(REGISTER, { ...fresh(), phone: '19912345678' })).status).toBe(201);
    });
  });

  describe('conflicts', () => {
    let taken: Awaited<ReturnType<TestApp['registerUser']>>;
    beforeAll(async () => {
      taken = await t.registerUser({ username: `Taken_${unique()}`, phone: '13011112222' });
    });

    it('refuses a registered email with 409 CONFLICT_EMAIL, whatever its letter case', async () => {
      for (const email of [taken.email, taken.email.toUpperCase()]) {
        const res = await t.post(REGISTER, { ...fresh(), email });
        expect(res.status, email).toBe(409);
        expect(res.body).toMatchObject({ error: 'CONFLICT_EMAIL', message: '该邮箱已被注册' });
      }
    });

    it('refuses a taken username with 409 CONFLICT_USERNAME, whatever its letter case', async () => {
      for (const username of [taken.username, taken.username.toLowerCase(), taken.username.toUpperCase()]) {
        const res = await t.post(REGISTER, { ...fresh(), username });
        expect(res.status, username).toBe(409);
        expect(res.body.error).toBe('CONFLICT_USERNAME');
      }
    });

    it('refuses a used phone number with 409 CONFLICT_PHONE', async () => {
      const res = await t.post(REGISTER, { ...fresh(), phone: '13011112222' }, undefined, 'en-US');
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'CONFLICT_PHONE', message: 'This phone number is already in use' });
    });

    it('lets exactly one of two simultaneous registrations of one email through', async () => {
      const email = `race_${unique()}@example.com`;
      const results = await Promise.all([
        t.post(REGISTER, { ...fresh(), email }),
        t.post(REGISTER, { ...fresh(), email }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)?.body.error).toBe('CONFLICT_EMAIL');
      expect(await t.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
    });

    it('lets exactly one of two simultaneous registrations of one username through', async () => {
      const username = `race_${unique()}`;
      const results = await Promise.all([
        t.post(REGISTER, { ...fresh(), username }),
        t.post(REGISTER, { ...fresh(), username: username.toUpperCase() }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)?.body.error).toBe('CONFLICT_USERNAME');
    });
  });

  it('answers 403 REGISTRATION_CLOSED when registration is switched off', async () => {
    const before = await countUsers();
    try {
      await t.setSetting('user', { allow_register: false });
      const res = await t.post(REGISTER, fresh(), undefined, 'en-US');
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'REGISTRATION_CLOSED', message: 'Registration is temporarily closed' });
      expect(await countUsers()).toBe(before);
    } finally {
      await t.setSetting('user', {});
    }
    expect((await t.post(REGISTER, fresh())).status).toBe(201);
  });
});

describe('availability checks', () => {
  let t: TestApp;
  let taken: Awaited<ReturnType<TestApp['registerUser']>>;
  beforeAll(async () => {
    t = await createTestApp();
    taken = await t.registerUser({ username: `Check_${unique()}` });
  });
  afterAll(async () => {
    await t.close();
  });

  it('POST /api/auth/check-email tells whether an email is free, ignoring letter case', async () => {
    const free = await t.post<{ available: boolean }>('/api/auth/check-email', {
      email: `free_${unique()}@example.com`,
    });
    expect(free.status).toBe(200);
    expect(free.body.data).toEqual({ available: true });
    for (const email of [taken.email, ` ${taken.email.toUpperCase()} `]) {
      expect(
        (await t.post<{ available: boolean }>('/api/auth/check-email', { email })).body.data.available,
        email,
      ).toBe(false);
    }
  });

  it('POST /api/auth/check-username tells whether a username is free, ignoring letter case', async () => {
    const free = await t.post<{ available: boolean }>('/api/auth/check-username', { username: `free_${unique()}` });
    expect(free.body.data).toEqual({ available: true });
    for (const username of [taken.username, taken.username.toUpperCase()]) {
      expect(
        (await t.post<{ available: boolean }>('/api/auth/check-username', { username })).body.data.available,
        username,
      ).toBe(false);
    }
  });

  it('fails for a value that could never be registered', async () => {
    const email = await t.post('/api/auth/check-email', { email: 'not-an-email' });
    expect(email.status).toBe(400);
    expect(email.body.data.errors).toEqual(['邮箱格式不正确']);
    const username = await t.post('/api/auth/check-username', { username: 'no spaces allowed' });
    expect(username.status).toBe(400);
    expect(username.body.data.errors).toContain('用户名只能包含字母、数字、下划线和连字符');
  });
});
