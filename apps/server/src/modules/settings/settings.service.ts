import {
  type PublicSystemConfig,
  SETTINGS_SECTIONS,
  type Settings,
  SettingsSchema,
  foldLegacySettings,
} from '@aiplatform/contracts';
import type { Clock } from '../../lib/clock.js';
import type { SettingsRepo } from './settings.repo.js';

/** Reads and writes the system configuration, always returned complete with defaults. */
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepo,
    private readonly clock: Clock,
  ) {}

  async getSettings(): Promise<Settings> {
    const stored = foldLegacySettings(await this.repo.readAll());
    const parsed = SettingsSchema.safeParse(stored);
    if (parsed.success) return parsed.data;
    // Repair section by section: one bad section must not reset the others.
    const repaired: Record<string, unknown> = {};
    for (const key of SETTINGS_SECTIONS) {
      const section = SettingsSchema.shape[key].safeParse(stored[key]);
      if (section.success) repaired[key] = section.data;
    }
    return SettingsSchema.parse(repaired);
  }

  /** Writes the defaults for every section that has no row yet (first start, upgrades). */
  async seedDefaults(): Promise<void> {
    const defaults = SettingsSchema.parse({});
    const now = this.clock.now().toISOString();
    for (const key of SETTINGS_SECTIONS) await this.repo.insertSectionIfMissing(key, defaults[key], now);
  }

  async getPublicConfig(): Promise<PublicSystemConfig> {
    const s = await this.getSettings();
    return {
      site: { ...s.site },
      user: { allow_register: s.user.allow_register },
      login: { mode: s.login.mode },
      homepage: { enabled: s.homepage.enabled },
      chat: { ...s.chat },
      ai: { default_model: s.ai.default_model, temperature: s.ai.temperature },
      theme: { colors: s.theme.colors },
    };
  }
}
