import type { AdminSettings, Settings } from '@aiplatform/contracts';

/**
 * What a read-only reader (a group administrator) may not see. Nothing in the settings
 * is secret today: provider keys live with the models and SMTP credentials in the
 * environment. A secret field added to the settings later must be removed here, so the
 * settings screen of a group administrator never carries it.
 */
export function withoutSecrets(settings: Settings): Settings {
  return settings;
}

/** GET/PUT /admin/settings: the whole configuration, marked read-only for those who may only look. */
export function toAdminSettings(settings: Settings, readOnly: boolean): AdminSettings {
  return { ...(readOnly ? withoutSecrets(settings) : settings), _readOnly: readOnly };
}
