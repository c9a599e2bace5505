import { SettingsSchema } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { bodyOf, clientErrors, formValuesOf, serverErrors } from './settings-form';

const settings = SettingsSchema.parse({ theme: { colors: { primary: '#112233', brand: '#abcdef' } } });
const translate = (key: string) => `T(${key})`;

describe('settings tab forms', () => {
  it('a tab holds and sends only its own fields', () => {
    const values = formValuesOf('security', settings);
    expect(values).toEqual({
      security: {
        token_expires_in: '12h',
        max_login_attempts: 5,
        session_timeout_minutes: 0,
        rate_limit_enabled: true,
      },
      sharing: { public_links: false },
    });
    const body = bodyOf(
      'security',
      { ...values, security: { ...values.security, token_expires_in: ' 30m ' } },
      settings,
    );
    expect(body).toEqual({
      security: { ...values.security, token_expires_in: '30m' },
      sharing: { public_links: false },
    });
  });

  it('the basic tab edits named colours and keeps the others', () => {
    const values = formValuesOf('basic', settings);
    expect(values.theme).toEqual({ colors: { primary: '#112233', success: '', warning: '', error: '', info: '' } });
    const body = bodyOf(
      'basic',
      { ...values, theme: { colors: { primary: '', success: '#00aa00', warning: '', error: '', info: '' } } },
      settings,
    );
    expect(body.theme).toEqual({ colors: { brand: '#abcdef', success: '#00aa00' } });
    expect(body.site).toEqual({ name: '', description: '', logo: '', favicon: '' });
    expect(body.credits).toBeUndefined();
  });

  it('checks with the shared schema and puts messages on the fields', () => {
    const body = bodyOf(
      'security',
      {
        security: {
          token_expires_in: 'abc',
          max_login_attempts: null,
          session_timeout_minutes: 0,
          rate_limit_enabled: true,
        },
      },
      settings,
    );
    expect(clientErrors('security', body, translate)).toEqual({
      fields: [
        { name: ['security', 'token_expires_in'], errors: ['T(validation.tokenExpiresIn.invalid)'] },
        { name: ['security', 'max_login_attempts'], errors: ['T(validation.maxLoginAttempts.invalid)'] },
      ],
      other: [],
    });
    expect(
      clientErrors('security', bodyOf('security', formValuesOf('security', settings), settings), translate),
    ).toEqual({ fields: [], other: [] });
  });

  it('places server sentences on the field they describe, the changed one when several fit', () => {
    const changed = (path: string[]) => path.join('.') === 'site.favicon';
    const result = serverErrors(
      'basic',
      ['T(validation.url.invalid)', 'T(validation.defaultModel.notFound)', 'Something else'],
      changed,
      translate,
    );
    expect(result).toEqual({
      fields: [
        { name: ['site', 'favicon'], errors: ['T(validation.url.invalid)'] },
        { name: ['ai', 'default_model'], errors: ['T(validation.defaultModel.notFound)'] },
      ],
      other: ['Something else'],
    });
    expect(serverErrors('security', ['Field security.max_login_attempts is too big'], () => false, translate)).toEqual({
      fields: [{ name: ['security', 'max_login_attempts'], errors: ['Field security.max_login_attempts is too big'] }],
      other: [],
    });
  });

  it('the statistics tab sends its three fields and names each bad one', () => {
    const values = formValuesOf('stats', settings);
    expect(values).toEqual({ stats: { time_zone: '', low_credits_threshold: 100, pool_alert_percent: 10 } });
    const body = bodyOf(
      'stats',
      { stats: { time_zone: ' Mars/Olympus ', low_credits_threshold: null, pool_alert_percent: 101 } },
      settings,
    );
    expect(body).toEqual({
      stats: { time_zone: 'Mars/Olympus', low_credits_threshold: null, pool_alert_percent: 101 },
    });
    expect(clientErrors('stats', body, translate).fields).toEqual([
      { name: ['stats', 'time_zone'], errors: ['T(validation.timeZone.invalid)'] },
      { name: ['stats', 'low_credits_threshold'], errors: ['T(validation.lowCreditsThreshold.invalid)'] },
      { name: ['stats', 'pool_alert_percent'], errors: ['T(validation.poolAlertPercent.invalid)'] },
    ]);
    const good = bodyOf(
      'stats',
      { stats: { time_zone: 'Asia/Shanghai', low_credits_threshold: 0, pool_alert_percent: 0 } },
      settings,
    );
    expect(clientErrors('stats', good, translate)).toEqual({ fields: [], other: [] });
    expect(serverErrors('stats', ['T(validation.timeZone.invalid)'], () => false, translate).fields).toEqual([
      { name: ['stats', 'time_zone'], errors: ['T(validation.timeZone.invalid)'] },
    ]);
  });

  it('the storage tab sends its three fields and names each bad one', () => {
    expect(formValuesOf('storage', settings)).toEqual({
      storage: { budget_mb: 10_240, alert_percent: 90, address_mb_per_hour: 200 },
    });
    const body = bodyOf(
      'storage',
      { storage: { budget_mb: -1, alert_percent: 101, address_mb_per_hour: null } },
      settings,
    );
    expect(body).toEqual({ storage: { budget_mb: -1, alert_percent: 101, address_mb_per_hour: null } });
    expect(body.stats).toBeUndefined();
    expect(clientErrors('storage', body, translate).fields).toEqual([
      { name: ['storage', 'budget_mb'], errors: ['T(validation.storageBudget.invalid)'] },
      { name: ['storage', 'alert_percent'], errors: ['T(validation.storageAlertPercent.invalid)'] },
      { name: ['storage', 'address_mb_per_hour'], errors: ['T(validation.addressUploadLimit.invalid)'] },
    ]);
    const good = bodyOf('storage', { storage: { budget_mb: 0, alert_percent: 0, address_mb_per_hour: 0 } }, settings);
    expect(clientErrors('storage', good, translate)).toEqual({ fields: [], other: [] });
    expect(serverErrors('storage', ['T(validation.storageBudget.invalid)'], () => false, translate).fields).toEqual([
      { name: ['storage', 'budget_mb'], errors: ['T(validation.storageBudget.invalid)'] },
    ]);
  });
});
