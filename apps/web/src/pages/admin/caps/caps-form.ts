import type { AlertChannel, CapPeriod, CapsBody, CapsConfig } from '@aiplatform/contracts';

/** The editor's values: blanks allowed while typing; `bodyOf` turns them into the request. */
export interface CapsFormValues {
  caps: { period: CapPeriod; credits: number | null; model_name?: string | null }[];
  alerts: { percent: number | null; channels: AlertChannel[] }[];
  webhook_url: string;
}

export function formValuesOf(config: CapsConfig): CapsFormValues {
  return {
    caps: config.caps.map((c) => ({ period: c.period, credits: c.credits, model_name: c.model_name })),
    alerts: config.alerts.map((a) => ({ percent: a.percent, channels: [...a.channels] })),
    webhook_url: config.webhook_url ?? '',
  };
}

/**
 * The PUT body. Blank numbers go as they are (null) so that the server, the one judge of
 * the rules, answers with its translated reason on the field.
 */
export function bodyOf(values: CapsFormValues): CapsBody {
  const model = (name: string | null | undefined) => (name?.trim() ? name.trim() : null);
  const url = values.webhook_url.trim();
  return {
    caps: (values.caps ?? []).map((c) => ({
      period: c.period,
      credits: c.credits as number,
      model_name: model(c.model_name),
    })),
    alerts: (values.alerts ?? []).map((a) => ({ percent: a.percent as number, channels: a.channels ?? [] })),
    webhook_url: url ? url : null,
  };
}

/** Where a server message belongs in the editor. */
export type CapsErrorPlace = 'caps' | 'alerts' | 'webhook_url';

const PLACES: Record<string, CapsErrorPlace> = {
  'validation.caps.period': 'caps',
  'validation.caps.credits': 'caps',
  'validation.caps.model': 'caps',
  'validation.caps.notLower': 'caps',
  'validation.caps.percent': 'alerts',
  'validation.caps.channel': 'alerts',
  'validation.caps.webhookUrl': 'webhook_url',
  'validation.caps.webhookMissing': 'webhook_url',
};

/** Keys said of either list: the one that breaks the rule gets the message. */
const EITHER = ['validation.caps.tooMany', 'validation.caps.duplicate'];

function repeats<T>(items: readonly T[], key: (t: T) => string): boolean {
  return new Set(items.map(key)).size !== items.length;
}

/**
 * Sorts the server's translated 400 messages onto the editor's places by comparing them
 * with the translations of the known keys; one it cannot place goes under `caps`.
 */
export function placeServerErrors(
  messages: readonly string[],
  body: CapsBody,
  translate: (key: string) => string,
): Record<CapsErrorPlace, string[]> {
  const placed: Record<CapsErrorPlace, string[]> = { caps: [], alerts: [], webhook_url: [] };
  const alertsAtFault =
    body.alerts.length > 12 ||
    repeats(body.alerts, (a) => String(a.percent)) ||
    !(body.caps.length > 12 || repeats(body.caps, (c) => `${c.period}/${c.model_name ?? ''}`));
  for (const message of messages) {
    const key = Object.keys(PLACES).find((k) => translate(k) === message);
    if (key) placed[PLACES[key] as CapsErrorPlace].push(message);
    else if (EITHER.some((k) => translate(k) === message)) placed[alertsAtFault ? 'alerts' : 'caps'].push(message);
    else placed.caps.push(message);
  }
  return placed;
}
