import type { ApiKey, ApiKeyPeriod, CreateApiKeyBody } from '@aiplatform/contracts';

/** The key form's period choice: `none` is no credit limit at all. */
export type PeriodChoice = ApiKeyPeriod | 'none';

export interface ApiKeyFormValues {
  name: string;
  models: string[];
  period: PeriodChoice;
  credit_limit: number | null;
  /** The last day the key works (the user's calendar day), or none. */
  expires_on: { endOf(unit: 'day'): { toDate(): Date } } | null;
  /** Allowed networks, separated by new lines, commas or spaces. */
  ip_allow: string;
  rpm: number | null;
}

export const EMPTY_API_KEY_FORM: ApiKeyFormValues = {
  name: '',
  models: [],
  period: 'none',
  credit_limit: null,
  expires_on: null,
  ip_allow: '',
  rpm: null,
};

/** The networks typed in the allow-list box: one per line, comma or space, each once. */
export function parseNetworks(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter((part) => part.length > 0))];
}

/**
 * The body of POST /keys. A limit needs its period (the server refuses one without the
 * other), so choosing no period sends neither; the key expires at the end of the chosen day.
 */
export function apiKeyBodyOf(values: ApiKeyFormValues): CreateApiKeyBody {
  const limited = values.period !== 'none' && values.credit_limit !== null;
  return {
    name: values.name.trim(),
    models: values.models,
    credit_limit: limited ? values.credit_limit : null,
    period: limited ? (values.period as ApiKeyPeriod) : null,
    expires_at: values.expires_on ? values.expires_on.endOf('day').toDate().toISOString() : null,
    ip_allow: parseNetworks(values.ip_allow),
    rpm: values.rpm,
  };
}

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/** A key's state as the lists show it. */
export function apiKeyStatus(key: Pick<ApiKey, 'revoked_at' | 'expires_at'>, now: Date): ApiKeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at !== null && new Date(key.expires_at).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** The address OpenAI clients are given as their base URL. */
export function v1BaseUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/v1`;
}
