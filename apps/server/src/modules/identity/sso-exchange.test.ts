import type { LoginResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin } from '../../../test/admin-helpers.js';
import { createProvider, uniqueSlug } from '../../../test/identity-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import type { ProviderRecord } from './provider-record.js';

describe('the one-time exchange code', () => {
  let t: TestApp;
  let superToken: string;
  let p: ProviderRecord;
  let userId: number;

  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
    const created = await createProvider(t, superToken, {
      type: 'oidc',
      slug: uniqueSlug('x-'),
      name: 'Corp',
      config: { issuer: 'https://login.example.com', client_id: 'x' },
      jit: true,
    });
    p = (await t.identity.providers.byId(created.id))!;
    userId = (await createUserAsAdmin(t, superToken)).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const exchange = (code: string) => t.post<LoginResult>('/api/auth/sso/exchange', { code });

  it('answers the login answer once, then refuses the same code', async () => {
    const code = await t.identity.exchange.issue(userId, p.id);
    const first = await exchange(code);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.user.id).toBe(userId);
    const me = await t.get('/api/auth/me', first.body.data.accessToken);
    expect(me.status).toBe(200);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('SSO_STATE_INVALID');
    // Stored hashed: the table never holds the code itself.
    const rows = await t.db.selectFrom('sso_exchange_codes').select('code_hash').execute();
    expect(rows.map((r) => r.code_hash)).not.toContain(code);
  });

  it('refuses a code older than 60 seconds and an unknown one, starting no session', async () => {
    const code = await t.identity.exchange.issue(userId, p.id);
    const sessionsBefore = await t.db.selectFrom('auth_sessions').select('id').where('user_id', '=', userId).execute();
    t.clock.advance(61_000);
    const late = await exchange(code);
    expect(late.body.error).toBe('SSO_STATE_INVALID');
    expect((await exchange('not-a-code')).body.error).toBe('SSO_STATE_INVALID');
    const sessionsAfter = await t.db.selectFrom('auth_sessions').select('id').where('user_id', '=', userId).execute();
    expect(sessionsAfter.length).toBe(sessionsBefore.length);
  });

  it('refuses a code whose account was disabled or whose provider was switched off meanwhile', async () => {
    const disabled = await t.identity.exchange.issue(userId, p.id);
    await t.setUserStatus(userId, 'inactive');
    expect((await exchange(disabled)).body.error).toBe('ACCOUNT_DISABLED');
    await t.setUserStatus(userId, 'active');

    const switchedOff = await t.identity.exchange.issue(userId, p.id);
    await t.put(`/api/admin/identity-providers/${p.id}`, { type: 'oidc', enabled: false }, superToken);
    expect((await exchange(switchedOff)).body.error).toBe('SSO_PROVIDER_DISABLED');
    await t.put(`/api/admin/identity-providers/${p.id}`, { type: 'oidc', enabled: true }, superToken);
  });

  it('keeps states single use and the housekeeping prunes what expired', async () => {
    const { state } = await t.identity.states.begin({
      provider_id: p.id,
      nonce: 'n',
      code_verifier: 'v',
      redirect: '//evil.example/x',
    });
    const taken = await t.identity.states.take(state, p.id);
    expect(taken.redirect).toBe('/');
    await expect(t.identity.states.take(state, p.id)).rejects.toMatchObject({ code: 'SSO_STATE_INVALID' });

    const other = await t.identity.states.begin({
      provider_id: p.id,
      nonce: 'n',
      code_verifier: 'v',
      redirect: '/chat',
    });
    await t.identity.exchange.issue(userId, p.id);
    expect(
      await t.identity.tickets.claimAssertion(p.id, 'assertion-1', new Date(Date.now() + 60_000).toISOString()),
    ).toBe(true);
    expect(
      await t.identity.tickets.claimAssertion(p.id, 'assertion-1', new Date(Date.now() + 60_000).toISOString()),
    ).toBe(false);
    await t.housekeeping.run(new Date(t.clock.now().getTime() + 3_600_000));
    for (const table of ['sso_states', 'sso_exchange_codes', 'saml_seen_assertions'] as const) {
      const n = await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n), table).toBe(0);
    }
    await expect(t.identity.states.take(other.state, p.id)).rejects.toMatchObject({ code: 'SSO_STATE_INVALID' });
  });
});
