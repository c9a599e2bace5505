import { type Settings, type SettingsUpdateBody, SettingsUpdateBodySchema } from '@aiplatform/contracts';

/** The tabs that edit plain settings fields (models, modules and the homepage have their own calls). */
export type FieldsTab = 'basic' | 'credits' | 'security' | 'storage' | 'stats' | 'documents' | 'retention';

type Section = Exclude<keyof Settings, 'homepage' | 'theme'>;
/** One settings field as [section, field], e.g. ['security', 'token_expires_in']. */
export type FieldRef = readonly [Section, string];

/** Colours an administrator picks by name; they become `--color-<name>` and antd's tokens. */
export const THEME_COLOR_NAMES = ['primary', 'success', 'warning', 'error', 'info'] as const;
export type ThemeColorName = (typeof THEME_COLOR_NAMES)[number];

/** Which fields each tab shows and saves: a tab's save never touches another tab's fields. */
export const TAB_FIELDS: Record<FieldsTab, readonly FieldRef[]> = {
  basic: [
    ['site', 'name'],
    ['site', 'description'],
    ['site', 'logo'],
    ['site', 'favicon'],
    ['user', 'allow_register'],
    ['user', 'email_verification'],
    ['user', 'default_credits'],
    ['user', 'default_tokens'],
    ['user', 'default_group_id'],
    ['ai', 'default_model'],
    ['ai', 'temperature'],
    ['ai', 'model_titles'],
    ['chat', 'font_family'],
    ['chat', 'font_size'],
    ['login', 'mode'],
  ],
  credits: [
    ['credits', 'enabled'],
    ['credits', 'min_credits_for_chat'],
    ['credits', 'default_credits_per_chat'],
  ],
  security: [
    ['security', 'token_expires_in'],
    ['security', 'max_login_attempts'],
    ['security', 'session_timeout_minutes'],
    ['security', 'rate_limit_enabled'],
    ['sharing', 'public_links'],
  ],
  storage: [
    ['storage', 'budget_mb'],
    ['storage', 'alert_percent'],
    ['storage', 'address_mb_per_hour'],
  ],
  stats: [
    ['stats', 'time_zone'],
    ['stats', 'low_credits_threshold'],
    ['stats', 'pool_alert_percent'],
  ],
  documents: [
    ['files', 'max_document_mb'],
    ['files', 'full_context_share'],
    ['knowledge', 'embedding_model'],
  ],
  retention: [['retention', 'days']],
};

/** Only the basic tab edits the theme colours. */
const TAB_HAS_COLORS: Record<FieldsTab, boolean> = {
  basic: true,
  credits: false,
  security: false,
  storage: false,
  stats: false,
  documents: false,
  retention: false,
};

/** Form values: nested like the settings (`{ site: { name } }`), colours by name with '' for none. */
export type SettingsFormValues = Record<string, Record<string, unknown>>;

export function formValuesOf(tab: FieldsTab, settings: Settings): SettingsFormValues {
  const values: SettingsFormValues = {};
  for (const [section, field] of TAB_FIELDS[tab]) {
    values[section] ??= {};
    values[section][field] = (settings[section] as Record<string, unknown>)[field];
  }
  if (TAB_HAS_COLORS[tab]) {
    values.theme = {
      colors: Object.fromEntries(THEME_COLOR_NAMES.map((name) => [name, settings.theme.colors[name] ?? ''])),
    };
  }
  return values;
}

/** The partial update a tab sends: its own fields only; colours not offered by name are kept. */
export function bodyOf(tab: FieldsTab, values: SettingsFormValues, settings: Settings): SettingsUpdateBody {
  const body: Record<string, Record<string, unknown>> = {};
  for (const [section, field] of TAB_FIELDS[tab]) {
    const value = values[section]?.[field];
    body[section] ??= {};
    body[section][field] = typeof value === 'string' ? value.trim() : value;
  }
  if (TAB_HAS_COLORS[tab]) {
    const picked = (values.theme?.colors ?? {}) as Record<string, unknown>;
    const colors: Record<string, string> = {};
    for (const [name, value] of Object.entries(settings.theme.colors)) {
      if (!(THEME_COLOR_NAMES as readonly string[]).includes(name)) colors[name] = value;
    }
    for (const name of THEME_COLOR_NAMES) {
      const value = picked[name];
      if (typeof value === 'string' && value.trim()) colors[name] = value.trim();
    }
    body.theme = { colors };
  }
  return body;
}

/** A message for one form field, by its path (e.g. ['security', 'token_expires_in']). */
export interface FieldError {
  name: string[];
  errors: string[];
}

/** The fields a tab can show a message on, as paths. */
function fieldPaths(tab: FieldsTab): string[][] {
  const paths = TAB_FIELDS[tab].map(([section, field]) => [section, field]);
  if (TAB_HAS_COLORS[tab]) paths.push(...THEME_COLOR_NAMES.map((name) => ['theme', 'colors', name]));
  return paths;
}

const pathKey = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** Collects messages per field; `other` keeps those that belong to no field of the tab. */
function collect(pairs: { path: string[] | null; message: string }[]): { fields: FieldError[]; other: string[] } {
  const byField = new Map<string, FieldError>();
  const other: string[] = [];
  for (const { path, message } of pairs) {
    if (!path) {
      if (!other.includes(message)) other.push(message);
      continue;
    }
    const entry = byField.get(pathKey(path)) ?? { name: path, errors: [] };
    if (!entry.errors.includes(message)) entry.errors.push(message);
    byField.set(pathKey(path), entry);
  }
  return { fields: [...byField.values()], other };
}

/**
 * Checks the body with the same schema the server uses, so mistakes show on their fields
 * before anything is sent. Messages are the schema's keys, translated by `translate`.
 */
export function clientErrors(
  tab: FieldsTab,
  body: SettingsUpdateBody,
  translate: (key: string) => string,
): { fields: FieldError[]; other: string[] } {
  const parsed = SettingsUpdateBodySchema.safeParse(body);
  if (parsed.success) return { fields: [], other: [] };
  const paths = fieldPaths(tab);
  return collect(
    parsed.error.issues.map((issue) => {
      const key = pathKey(issue.path);
      const path = paths.find((p) => pathKey(p) === key) ?? null;
      return { path, message: translate(issue.message) };
    }),
  );
}

/**
 * Message keys the server may answer for each field. The server's 400 lists translated
 * sentences without field names, so a sentence is placed on the field whose key
 * translates to it (in the same language the request was made in).
 */
const SERVER_KEYS: Record<string, readonly string[]> = {
  'site.name': ['validation.siteName.max'],
  'site.description': ['validation.description.max'],
  'site.logo': ['validation.url.invalid'],
  'site.favicon': ['validation.url.invalid'],
  'user.default_tokens': ['validation.defaultTokens.invalid'],
  'user.default_credits': ['validation.defaultCredits.invalid'],
  'user.default_group_id': ['validation.group.required', 'validation.group.notFound'],
  'ai.default_model': ['validation.model.required', 'validation.modelName.max', 'validation.defaultModel.notFound'],
  'ai.temperature': ['validation.temperature.range'],
  'chat.font_family': ['validation.fontFamily.invalid'],
  'chat.font_size': ['validation.fontSize.invalid'],
  'login.mode': ['validation.loginMode.invalid'],
  'security.token_expires_in': ['validation.tokenExpiresIn.invalid'],
  'security.max_login_attempts': ['validation.maxLoginAttempts.invalid'],
  'security.session_timeout_minutes': ['validation.sessionTimeout.invalid'],
  'credits.min_credits_for_chat': ['validation.minCredits.invalid'],
  'credits.default_credits_per_chat': ['validation.creditsPerChat.invalid'],
  'storage.budget_mb': ['validation.storageBudget.invalid'],
  'storage.alert_percent': ['validation.storageAlertPercent.invalid'],
  'storage.address_mb_per_hour': ['validation.addressUploadLimit.invalid'],
  'stats.time_zone': ['validation.timeZone.invalid'],
  'stats.low_credits_threshold': ['validation.lowCreditsThreshold.invalid'],
  'stats.pool_alert_percent': ['validation.poolAlertPercent.invalid'],
  'retention.days': ['validation.retentionDays.invalid'],
  ...Object.fromEntries(THEME_COLOR_NAMES.map((name) => [`theme.colors.${name}`, ['validation.themeColor.invalid']])),
};

/**
 * Places the sentences of a server 400 on the tab's fields. A sentence that fits several
 * fields (the two image addresses, the colours) goes to those the administrator changed;
 * generic sentences name the field's path, which is matched too.
 */
export function serverErrors(
  tab: FieldsTab,
  messages: readonly string[],
  changed: (path: string[]) => boolean,
  translate: (key: string) => string,
): { fields: FieldError[]; other: string[] } {
  const paths = fieldPaths(tab);
  return collect(
    messages.flatMap((message): { path: string[] | null; message: string }[] => {
      const fits = paths.filter(
        (path) =>
          (SERVER_KEYS[pathKey(path)] ?? []).some((key) => translate(key) === message) ||
          message.includes(pathKey(path)),
      );
      const chosen = fits.length > 1 ? fits.filter(changed) : fits;
      const targets = chosen.length > 0 ? chosen : fits.slice(0, 1);
      return targets.length > 0 ? targets.map((path) => ({ path, message })) : [{ path: null, message }];
    }),
  );
}
