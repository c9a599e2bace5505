import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { adminSession, auditHeadSeq, auditRowsAfter } from '../../../test/admin-helpers.js';
import { scim, scimToken } from '../../../test/scim-helpers.js';

describe('SCIM tokens (admin)', () => {
  let t: TestApp;
  let superToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the token once, stores only its hash, and audits its creation and revocation', async () => {
    const seq = await auditHeadSeq(t);
    const made = await scimToken(t, superToken, 'Entra ID');
    expect(made.token.length).toBeGreaterThanOrEqual(40);

    const row = await t.db.selectFrom('scim_tokens').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(crypto.createHash('sha256').update(made.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(made.token);

    const list = await t.get<{ id: number; name: string }[]>('/api/admin/scim-tokens', superToken);
    expect(list.status).toBe(200);
    expect(list.body.data.find((r) => r.id === made.id)).toMatchObject({ name: 'Entra ID', revoked_at: null });
    expect(list.text).not.toContain(made.token);

    // The token works, then stops working once revoked.
    expect((await scim(t, 'GET', '/Users', made.token)).status).toBe(200);
    expect((await t.request('DELETE', `/api/admin/scim-tokens/${made.id}`, { token: superToken })).status).toBe(200);
    expect((await scim(t, 'GET', '/Users', made.token)).status).toBe(401);
    expect((await t.request('DELETE', `/api/admin/scim-tokens/${made.id}`, { token: superToken })).status).toBe(404);

    const audit = await auditRowsAfter(t, seq);
    expect(audit.map((a) => [a.action, a.target_id])).toEqual([
      ['scim_token.create', String(made.id)],
      ['scim_token.revoke', String(made.id)],
    ]);
    expect(audit.map((a) => a.raw).join()).not.toContain(made.token);
  });

  it('records when a token was last used, at most once a minute', async () => {
    const made = await scimToken(t, superToken);
    const lastUsed = async () =>
      (await t.db.selectFrom('scim_tokens').select('last_used_at').where('id', '=', made.id).executeTakeFirstOrThrow())
        .last_used_at;
    expect(await lastUsed()).toBeNull();
    await scim(t, 'GET', '/ServiceProviderConfig', made.token);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    t.clock.advance(30_000);
    await scim(t, 'GET', '/ServiceProviderConfig', made.token);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    await scim(t, 'GET', '/ServiceProviderConfig', made.token);
    expect(await lastUsed()).not.toBe(first);
  });

  it('is for super administrators only: 401 anonymous, 403 for other administrators', async () => {
    const groupAdmin = await adminSession(t, superToken);
    const userAdmin = await adminSession(t, superToken, {
      extra_permissions: ['user.manage', 'group.manage', 'settings.manage'],
    });
    for (const caller of [undefined, groupAdmin.token, userAdmin.token]) {
      const expected = caller === undefined ? 401 : 403;
      expect((await t.get('/api/admin/scim-tokens', caller)).status).toBe(expected);
      expect((await t.post('/api/admin/scim-tokens', { name: 'x' }, caller)).status).toBe(expected);
      expect((await t.request('DELETE', '/api/admin/scim-tokens/1', { token: caller })).status).toBe(expected);
    }
    expect(await t.db.selectFrom('scim_tokens').select('id').where('name', '=', 'x').execute()).toEqual([]);
  });
});
