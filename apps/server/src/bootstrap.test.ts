import { SETTINGS_SECTIONS, SettingsSchema } from '@aiplatform/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestApp, createTestApp } from '../test/test-app.js';

describe('first start', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('creates the super administrator from adminEmail/adminPassword', async () => {
    t = await createTestApp({ config: { adminEmail: 'Boss@Test.Local' } });
    expect(t.bootstrapResult.createdAdmin).toEqual({
      email: 'boss@test.local',
      password: ADMIN_PASSWORD,
      generated: false,
    });
    const session = await t.tokensFor('boss@test.local', ADMIN_PASSWORD);
    expect(session.user).toMatchObject({
      email: 'boss@test.local',
      role: 'super_admin',
      status: 'active',
      group_id: 1,
    });
    expect(session.permissions).toEqual(['system.all']);
    // The administrator's opening credits are on the ledger like anyone else's.
    expect(await t.ledgerSum(session.user.id)).toBe(session.user.credits_stats.remaining);
  });

  it('generates a password when none is given and reports it once', async () => {
    t = await createTestApp({ config: { adminPassword: undefined } });
    const created = t.bootstrapResult.createdAdmin;
    expect(created?.generated).toBe(true);
    expect(created?.email).toBe(ADMIN_EMAIL);
    expect(created?.password.length).toBeGreaterThanOrEqual(12);
    const session = await t.tokensFor(ADMIN_EMAIL, created?.password ?? '');
    expect(session.user.role).toBe('super_admin');

    const other = await createTestApp({ config: { adminPassword: undefined } });
    try {
      expect(other.bootstrapResult.createdAdmin?.password).not.toBe(created?.password);
    } finally {
      await other.close();
    }
  });

  it('creates nobody on later starts and keeps the existing administrator', async () => {
    t = await createTestApp();
    expect(t.bootstrapResult.createdAdmin).toBeDefined();
    await t.reopen();
    expect(t.bootstrapResult.createdAdmin).toBeUndefined();
    const users = await t.db.selectFrom('users').select(['email', 'role']).execute();
    expect(users).toEqual([{ email: ADMIN_EMAIL, role: 'super_admin' }]);
    await t.tokensFor(ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  it('seeds the default group with id 1 and lets later groups take the next ids', async () => {
    t = await createTestApp();
    const group = await t.db.selectFrom('user_groups').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(group).toMatchObject({ name: 'default', status: 'active' });
    const now = new Date().toISOString();
    const { id } = await t.db
      .insertInto('user_groups')
      .values({
        name: 'second',
        description: '',
        color: '#000000',
        sort_order: 1,
        status: 'active',
        credits_pool: 0,
        credits_pool_used: 0,
        user_limit: null,
        site_name: null,
        site_logo: null,
        site_config_enabled: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(id).toBe(2);
  });

  it('seeds every settings section with its defaults', async () => {
    t = await createTestApp();
    const rows = await t.db.selectFrom('system_settings').select(['key', 'value']).execute();
    expect(rows.map((r) => r.key).sort()).toEqual([...SETTINGS_SECTIONS].sort());
    const defaults = SettingsSchema.parse({});
    for (const r of rows) expect(JSON.parse(r.value), r.key).toEqual(defaults[r.key as keyof typeof defaults]);
    const user = JSON.parse(rows.find((r) => r.key === 'user')?.value ?? '{}') as Record<string, unknown>;
    expect(user).toMatchObject({
      allow_register: true,
      default_credits: 1000,
      default_tokens: 10000,
      default_group_id: 1,
    });
  });

  it('keeps changed settings across restarts and restores a missing section', async () => {
    t = await createTestApp();
    await t.setSetting('login', { mode: 'email_verify_required' });
    await t.db.deleteFrom('system_settings').where('key', '=', 'chat').execute();
    await t.reopen();
    const res = await t.get<{ login: { mode: string }; chat: { font_size: number } }>('/api/public/system-config');
    expect(res.body.data.login.mode).toBe('email_verify_required');
    const chat = await t.db.selectFrom('system_settings').select('value').where('key', '=', 'chat').executeTakeFirst();
    expect(chat && JSON.parse(chat.value)).toEqual({ font_family: 'system-ui', font_size: 14 });
  });
});
