import {
  type PublicSystemConfig,
  SETTINGS_SECTIONS,
  type Settings,
  SettingsSchema,
  foldLegacySettings,
} from '@aiplatform/contracts';
import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { SettingsRepo } from './settings.repo.js';
import type { Db } from '../../db/types.js';

/** The change event a settings write publishes; every instance drops its cached copy. */
export const SETTINGS_CHANGED = 'settings';

/**
 * How long a cached copy is trusted without hearing of a change. Events make a change
 * apply at once; this bound is the safety net for a lost event or a hand-edited row.
 */
export const SETTINGS_CACHE_MS = 1000;

/** Complete settings from stored rows: legacy keys folded, defaults filled, bad sections repaired. */
export function parseStoredSettings(raw: Record<string, unknown>): Settings {
  const stored = foldLegacySettings(raw);
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

/**
 * Reads the system configuration, always complete with defaults. Nearly every request
 * asks for it (rate limits, sign-in, chat), so the parsed copy is cached in memory and
 * dropped on a change event or after SETTINGS_CACHE_MS, whichever comes first.
 */
export class SettingsService {
  private cached: { value: Settings; expiresAt: number } | undefined;
  private loading: { promise: Promise<Settings>; generation: number } | undefined;
  /** Bumped by every invalidation: a read begun before it must not refill the cache. */
  private generation = 0;

  constructor(
    private readonly repo: SettingsRepo,
    private readonly clock: Clock,
    private readonly bus?: ChangeBus,
  ) {
    bus?.subscribe(SETTINGS_CHANGED, () => this.invalidate());
  }

  /**
   * The cached copy itself, frozen: callers only read it. Copying on every call would
   * copy the homepage HTML (up to 200,000 characters) several times per request.
   */
  async getSettings(): Promise<Settings> {
    const now = this.clock.now().getTime();
    return this.cached && this.cached.expiresAt > now ? this.cached.value : this.load(now);
  }

  /** The stored configuration read now, bypassing the cache (inside a transaction when given one). */
  async readFresh(db?: Db): Promise<Settings> {
    return parseStoredSettings(await this.repo.readAll(db));
  }

  private async readFrozen(): Promise<Settings> {
    return deepFreeze(await this.readFresh());
  }

  /** Drops this instance's cached copy. */
  invalidate(): void {
    this.generation += 1;
    this.cached = undefined;
    this.loading = undefined;
  }

  /** After a committed write: every instance drops its copy (this one at once). */
  async changed(): Promise<void> {
    this.invalidate();
    await this.bus?.publish(SETTINGS_CHANGED);
  }

  /** One read at a time however many requests wait for it. */
  private load(startedAt: number): Promise<Settings> {
    if (this.loading?.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const promise = this.readFrozen().then((value) => {
      // The expiry counts from the start of the read, so no copy is ever older than the bound.
      if (generation === this.generation) this.cached = { value, expiresAt: startedAt + SETTINGS_CACHE_MS };
      return value;
    });
    this.loading = { promise, generation };
    void promise.then(
      () => this.settle(promise),
      () => this.settle(promise),
    );
    return promise;
  }

  private settle(promise: Promise<Settings>): void {
    if (this.loading?.promise === promise) this.loading = undefined;
  }

  /** Writes the defaults for every section that has no row yet (first start, upgrades). */
  async seedDefaults(): Promise<void> {
    const defaults = SettingsSchema.parse({});
    const now = this.clock.now().toISOString();
    for (const key of SETTINGS_SECTIONS) await this.repo.insertSectionIfMissing(key, defaults[key], now);
    this.invalidate();
  }

  async getPublicConfig(): Promise<PublicSystemConfig> {
    const s = await this.getSettings();
    return {
      site: { ...s.site },
      user: { allow_register: s.user.allow_register, email_verification: s.user.email_verification },
      login: { mode: s.login.mode, local_password: s.login.local_password },
      homepage: { enabled: s.homepage.enabled },
      chat: { ...s.chat },
      ai: { default_model: s.ai.default_model, temperature: s.ai.temperature },
      theme: { colors: s.theme.colors },
      sharing: { public_links: s.sharing.public_links },
    };
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
