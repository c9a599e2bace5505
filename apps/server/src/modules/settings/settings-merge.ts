import { SETTINGS_SECTIONS, type Settings, SettingsSchema, type SettingsUpdateBody } from '@aiplatform/contracts';
import { AppError } from '../../lib/http/errors.js';

/**
 * Applies a partial update: each section given is merged field by field into the stored
 * one, so a form that sends one field keeps the others. A field's value is replaced as
 * a whole — theme colours are one value, so removing a colour means sending the map without it.
 */
export function mergeSettings(current: Settings, body: SettingsUpdateBody): Settings {
  const merged: Record<string, unknown> = { ...current };
  for (const key of SETTINGS_SECTIONS) {
    const patch = (body as Record<string, object | undefined>)[key];
    if (patch) merged[key] = { ...current[key], ...patch };
  }
  // The body was checked field by field; the whole is checked again so no combination slips through.
  const whole = SettingsSchema.safeParse(merged);
  if (!whole.success) throw new AppError('VALIDATION_FAILED');
  return whole.data;
}

/** The sections whose content differs; only these are written and audited. */
export function changedSections(before: Settings, after: Settings): (keyof Settings)[] {
  return SETTINGS_SECTIONS.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

export function pickSections(settings: Settings, keys: readonly (keyof Settings)[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, settings[key]]));
}
