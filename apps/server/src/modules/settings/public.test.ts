import type { PublicSystemConfig } from '@aiplatform/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

const URL = '/api/public/system-config';

describe('GET /api/public/system-config', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.db.deleteFrom('system_settings').execute();
    await t.reopen(); // re-seeds the defaults
  });

  it('answers without sign-in with the public sections and defaults', async () => {
    const res = await t.get<PublicSystemConfig>(URL);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.site).toEqual({ name: '', description: '', logo: '', favicon: '' });
    expect(data.user).toEqual({ allow_register: true, email_verification: false });
    expect(data.login).toEqual({ mode: 'standard', local_password: 'all' });
    expect(data.homepage).toEqual({ enabled: false });
    expect(data.ai).toEqual({ default_model: 'gpt-4.1-mini-op', temperature: 0 });
  });

  it('tells the chat forms the configured default model and temperature', async () => {
    await t.setSetting('ai', { default_model: 'qwen-max', temperature: 0.7 });
    const res = await t.get<PublicSystemConfig>(URL);
    expect(res.body.data.ai).toEqual({ default_model: 'qwen-max', temperature: 0.7 });
  });

  it('never exposes private settings', async () => {
    await t.setSetting('homepage', { enabled: true, html: '<p>secret draft</p>', updated_at: null });
    const res = await t.get<Record<string, unknown>>(URL);
    expect(Object.keys(res.body.data)).not.toContain('security');
    expect(Object.keys(res.body.data)).not.toContain('credits');
    expect(res.text).not.toContain('default_credits');
    expect(res.text).not.toContain('secret draft');
    expect(res.body.data.homepage).toEqual({ enabled: true });
  });

  it('follows the stored settings at once', async () => {
    await t.setSetting('user', { allow_register: false });
    await t.setSetting('login', { mode: 'email_verify_required' });
    await t.setSetting('site', { name: 'Acme AI', description: 'Internal', logo: '/logo.png', favicon: '' });
    const res = await t.get<PublicSystemConfig>(URL);
    expect(res.body.data.user.allow_register).toBe(false);
    expect(res.body.data.login.mode).toBe('email_verify_required');
    expect(res.body.data.site).toMatchObject({ name: 'Acme AI', description: 'Internal', logo: '/logo.png' });
  });

  it('ignores a bearer token, even a bad one', async () => {
    const res = await t.get<PublicSystemConfig>(URL, 'not-a-token');
    expect(res.status).toBe(200);
    expect(res.body.data.login.mode).toBe('standard');
  });

  it('falls back to defaults for an unreadable or invalid section without breaking the others', async () => {
    await t.setSetting('site', { name: 'Kept' });
    await t.setSetting('login', { mode: 'something-else' });
    await t.db.updateTable('system_settings').set({ value: '{not json' }).where('key', '=', 'user').execute();
    t.settings.invalidate();
    const res = await t.get<PublicSystemConfig>(URL);
    expect(res.status).toBe(200);
    expect(res.body.data.login.mode).toBe('standard');
    expect(res.body.data.user.allow_register).toBe(true);
    expect(res.body.data.site.name).toBe('Kept');
  });

  it('maps the legacy default quota names onto the new ones for new accounts', async () => {
    await t.setSetting('user', { default_credits_quota: 250, default_token_quota: 77 });
    const { session } = await t.signUp();
    expect(session.user.credits_stats.quota).toBe(250);
    expect(session.user.token_quota).toBe(77);
  });
});
