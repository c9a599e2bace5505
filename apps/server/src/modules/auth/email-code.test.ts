import type { LoginResult } from '@aiplatform/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Credentials, type TestApp, createTestApp } from '../../../test/test-app.js';

const SEND = '/api/auth/send-email-code';
const BY_CODE = '/api/auth/login-by-code';
const TRIPLE = '/api/auth/login-by-email-password';
const MINUTE = 60_000;

describe('email codes', () => {
  let t: TestApp;
  let u: Credentials;
  beforeEach(async () => {
    t = await createTestApp();
    u = await t.registerUser();
  });
  afterEach(async () => {
    await t.close();
  });

  /** Sends a code through the API and reads it from the SMTP sink. */
  async function requestCode(email = u.email): Promise<string> {
    const res = await t.post(SEND, { email });
    expect(res.status, res.text).toBe(200);
    return t.mail.waitForCode(email);
  }

  const openCodes = () =>
    t.db.selectFrom('email_codes').selectAll().where('email', '=', u.email).where('consumed_at', 'is', null).execute();

  describe('POST /api/auth/send-email-code', () => {
    it('mails a 6-digit code over SMTP, in the language of the request', async () => {
      const zh = await t.post(SEND, { email: u.email });
      expect(zh.body).toMatchObject({ success: true, message: '验证码已发送到您的邮箱' });
      const zhMail = await t.mail.nextMailTo(u.email);
      expect(zhMail.to).toEqual([u.email]);
      expect(zhMail.subject).toMatch(/^您的登录验证码：\d{6}$/);
      expect(zhMail.text).toContain(`${zhMail.code}，5 分钟内有效`);

      t.clock.advance(61_000);
      const en = await t.post(SEND, { email: u.email.toUpperCase() }, undefined, 'en-US');
      expect(en.body.message).toBe('The code has been sent to your email');
      const enMail = await t.mail.nextMailTo(u.email);
      expect(enMail.subject).toMatch(/^Your sign-in code: \d{6}$/);
      expect(enMail.text).toContain('valid for 5 minutes');
    });

    it('stores only a hash of the code', async () => {
      const code = await requestCode();
      const rows = await openCodes();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.code_hash).not.toContain(code);
      expect(rows[0]?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('refuses an unknown email with 400 EMAIL_NOT_REGISTERED and sends nothing', async () => {
      const res = await t.post(SEND, { email: 'stranger@example.com' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('EMAIL_NOT_REGISTERED');
      expect(t.mail.mailsTo('stranger@example.com')).toHaveLength(0);
    });

    it('refuses a disabled account', async () => {
      await t.setUserStatus(u.id, 'inactive');
      const res = await t.post(SEND, { email: u.email });
      expect(res.body.error).toBe('EMAIL_NOT_REGISTERED');
      expect(t.mail.mailsTo(u.email)).toHaveLength(0);
    });

    it('allows one code per address every 60 seconds', async () => {
      const sentAt = Date.now();
      const first = await requestCode();
      const again = await t.post(SEND, { email: u.email }, undefined, 'en-US');
      expect(again.status).toBe(429);
      expect(again.body.error).toBe('CODE_TOO_FREQUENT');
      // The wait left, counted from the first code: 60 less the seconds that really passed
      // (the test clock runs with real time, and a loaded machine can take seconds here).
      const elapsed = Math.ceil((Date.now() - sentAt) / 1000);
      const seconds = Number(/try again in (\d+) seconds/.exec(again.body.message)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(60 - elapsed);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(t.mail.mailsTo(u.email)).toHaveLength(1);

      // Another address is not held back.
      const other = await t.registerUser();
      expect((await t.post(SEND, { email: other.email })).status).toBe(200);

      t.clock.advance(30_000);
      expect((await t.post(SEND, { email: u.email })).status).toBe(429);
      t.clock.advance(31_000);
      const second = await requestCode();
      // The new code replaces the old one.
      expect(await openCodes()).toHaveLength(1);
      if (first !== second)
        expect((await t.post(BY_CODE, { email: u.email, code: first })).body.error).toBe('CODE_INVALID');
      expect((await t.post(BY_CODE, { email: u.email, code: second })).status).toBe(200);
    });
  });

  describe('POST /api/auth/login-by-code', () => {
    it('signs in with the mailed code', async () => {
      const code = await requestCode();
      const res = await t.post<LoginResult>(BY_CODE, { email: u.email, code });
      expect(res.status).toBe(200);
      expect(res.body.data.user.id).toBe(u.id);
      expect((await t.get('/api/auth/me', res.body.data.accessToken)).status).toBe(200);
    });

    it('accepts a code once only', async () => {
      const code = await requestCode();
      expect((await t.post(BY_CODE, { email: u.email, code })).status).toBe(200);
      const again = await t.post(BY_CODE, { email: u.email, code });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('CODE_EXPIRED');
    });

    it('lets only one of several simultaneous sign-ins with one code through', async () => {
      const code = await requestCode();
      const results = await Promise.all(Array.from({ length: 4 }, () => t.post(BY_CODE, { email: u.email, code })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expect(r.body.error).toBe('CODE_EXPIRED');
    });

    it('answers a wrong code with CODE_INVALID and counts the try', async () => {
      const code = await requestCode();
      const wrong = code === '000000' ? '111111' : '000000';
      const res = await t.post(BY_CODE, { email: u.email, code: wrong });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'CODE_INVALID', message: '验证码错误' });
      expect((await openCodes())[0]?.attempts).toBe(1);
      // A wrong try does not spend the code.
      expect((await t.post(BY_CODE, { email: u.email, code })).status).toBe(200);
    });

    it('compares at most 5 of many simultaneous wrong guesses', async () => {
      const code = await requestCode();
      const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => t.post(BY_CODE, { email: u.email, code: wrong(i) })),
      );
      expect(results.filter((r) => r.body.error === 'CODE_INVALID').length).toBeLessThanOrEqual(5);
      expect(results.filter((r) => r.body.error === 'CODE_EXPIRED').length).toBeGreaterThanOrEqual(25);
      expect((await t.post(BY_CODE, { email: u.email, code })).body.error).toBe('CODE_EXPIRED');
    });

    it('voids the code after 5 wrong tries, even for the right code', async () => {
      const code = await requestCode();
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 1; i <= 5; i++) {
        expect((await t.post(BY_CODE, { email: u.email, code: wrong })).body.error, `try ${i}`).toBe('CODE_INVALID');
      }
      const res = await t.post(BY_CODE, { email: u.email, code });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('CODE_EXPIRED');
    });

    it('expires the code after 5 minutes', async () => {
      const code = await requestCode();
      t.clock.advance(5 * MINUTE + 1000);
      const res = await t.post(BY_CODE, { email: u.email, code }, undefined, 'en-US');
      expect(res.body.error).toBe('CODE_EXPIRED');
      expect(res.body.message).toContain('expired');
    });

    it('still accepts the code just before 5 minutes', async () => {
      const code = await requestCode();
      t.clock.advance(5 * MINUTE - 5000);
      expect((await t.post(BY_CODE, { email: u.email, code })).status).toBe(200);
    });

    it('answers CODE_EXPIRED when no code was requested and CODE_INVALID for an unknown email', async () => {
      expect((await t.post(BY_CODE, { email: u.email, code: '123456' })).body.error).toBe('CODE_EXPIRED');
      expect((await t.post(BY_CODE, { email: 'ghost@example.com', code: '123456' })).body.error).toBe('CODE_INVALID');
    });

    it('checks the code against the address it was sent to', async () => {
      const other = await t.registerUser();
      const code = await requestCode();
      await requestCode(other.email);
      // The code of one address does not open another account.
      const res = await t.post(BY_CODE, { email: other.email, code });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('CODE_INVALID');
    });

    it('validates email and a 6-digit code', async () => {
      const res = await t.post(BY_CODE, { email: 'bad', code: '12ab' });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining(['邮箱格式不正确', '验证码为6位数字']));
      const empty = await t.post(BY_CODE, { email: '', code: '' });
      expect(empty.body.data.errors).toEqual(expect.arrayContaining(['请输入邮箱地址', '请输入验证码']));
    });

    it('is refused with 403 in the high-security mode', async () => {
      const code = await requestCode();
      await t.setSetting('login', { mode: 'email_verify_required' });
      const res = await t.post(BY_CODE, { email: u.email, code });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('LOGIN_MODE_NOT_ALLOWED');
    });
  });

  describe('POST /api/auth/login-by-email-password (high-security mode)', () => {
    beforeEach(async () => {
      await t.setSetting('login', { mode: 'email_verify_required' });
    });

    it('signs in with email, password and code, while the standard logins are refused', async () => {
      expect((await t.post('/api/auth/login', { account: u.email, password: u.password })).body.error).toBe(
        'LOGIN_MODE_NOT_ALLOWED',
      );
      const code = await requestCode();
      const res = await t.post<LoginResult>(TRIPLE, { email: u.email, password: u.password, code });
      expect(res.status).toBe(200);
      expect(res.body.data.user.id).toBe(u.id);
      expect(res.body.data.expiresIn).toBe('12h');
      const config = await t.get<{ login: { mode: string } }>('/api/public/system-config');
      expect(config.body.data.login.mode).toBe('email_verify_required');
    });

    it('does not spend the code on a wrong password', async () => {
      const code = await requestCode();
      const res = await t.post(TRIPLE, { email: u.email, password: 'wrong-password', code });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('INVALID_CREDENTIALS');
      expect((await openCodes())[0]?.attempts).toBe(0);
      expect((await t.post(TRIPLE, { email: u.email, password: u.password, code })).status).toBe(200);
    });

    it('refuses a wrong code with the right password, and spends a right code once', async () => {
      const code = await requestCode();
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await t.post(TRIPLE, { email: u.email, password: u.password, code: wrong })).body.error).toBe(
        'CODE_INVALID',
      );
      expect((await t.post(TRIPLE, { email: u.email, password: u.password, code })).status).toBe(200);
      expect((await t.post(TRIPLE, { email: u.email, password: u.password, code })).body.error).toBe('CODE_EXPIRED');
    });

    it('refuses a disabled account', async () => {
      const code = await requestCode();
      await t.setUserStatus(u.id, 'inactive');
      const res = await t.post(TRIPLE, { email: u.email, password: u.password, code });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ACCOUNT_DISABLED');
    });

    it('requires all three fields', async () => {
      const res = await t.post(TRIPLE, { email: u.email });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining(['请输入密码', '请输入验证码']));
    });
  });
});

describe('mail delivery failure', () => {
  it('answers 502 MAIL_SEND_FAILED and does not start the cooldown', async () => {
    const t = await createTestApp();
    try {
      const u = await t.registerUser();
      await t.mail.close();
      const first = await t.post(SEND, { email: u.email });
      expect(first.status).toBe(502);
      expect(first.body.error).toBe('MAIL_SEND_FAILED');
      const second = await t.post(SEND, { email: u.email });
      expect(second.body.error).toBe('MAIL_SEND_FAILED');
    } finally {
      await t.close();
    }
  });
});
