import type { AiProvider } from '../chat.js';

/**
 * Where each provider is called when a model has no endpoint of its own (`api_endpoint`
 * null). An OpenAI-compatible server has no default: such a model needs an endpoint.
 */
export const PROVIDER_DEFAULT_BASE: Readonly<Record<AiProvider, string | null>> = {
  openai: 'https://api.openai.com/v1',
  openai_compatible: null,
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

/** A model's reach: its provider and its own endpoint (null or blank = the provider's default). */
export interface ModelReach {
  provider: AiProvider;
  api_endpoint: string | null | undefined;
}

/**
 * The origin (scheme, host and port) a model's key is sent to, or null when the model
 * has nowhere to call (an OpenAI-compatible model without endpoint, an unreadable address).
 */
export function keyOrigin({ provider, api_endpoint }: ModelReach): string | null {
  const base = api_endpoint?.trim() || PROVIDER_DEFAULT_BASE[provider];
  return base && URL.canParse(base) ? new URL(base).origin : null;
}

/**
 * Whether a change of provider or endpoint would send the stored key to another origin
 * than the one it was entered for. Whoever may edit a model must not be able to read its
 * key back by pointing the model at a server of their own, so such a change needs the key
 * again. A path change on the same server does not, nor does a change that leaves the
 * model nowhere to call.
 */
export function sendsKeyElsewhere(before: ModelReach, after: ModelReach): boolean {
  const to = keyOrigin(after);
  return to !== null && to !== keyOrigin(before);
}
