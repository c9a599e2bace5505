import type { AdminModel, AiProvider } from '@aiplatform/contracts';

/** Translation keys of the providers, written out so the locale check sees each one. */
export const PROVIDER_LABEL_KEYS: Record<AiProvider, string> = {
  openai: 'catalog:providers.openai',
  openai_compatible: 'catalog:providers.openai_compatible',
  anthropic: 'catalog:providers.anthropic',
  google: 'catalog:providers.google',
};

/** Only an OpenAI-compatible service has no address of its own to fall back on. */
export function endpointRequired(provider: AiProvider | undefined): boolean {
  return provider === 'openai_compatible';
}

/**
 * The stored key's hint ("…abcd"); '' when a key is stored but its hint is not shown to
 * this reader; null when no key is stored.
 */
export function keyHint(model: Pick<AdminModel, 'api_key_set' | 'api_key_hint'>): string | null {
  if (!model.api_key_set) return null;
  return model.api_key_hint ?? '';
}

export type ModelTestState =
  | { kind: 'never' }
  | { kind: 'success'; latencyMs: number | null; at: string | null }
  | { kind: 'failed'; message: string; at: string | null };

/** The outcome of the model's last connection test, as the list shows it. */
export function testStateOf(
  model: Pick<AdminModel, 'last_test_status' | 'last_test_message' | 'last_test_latency_ms' | 'last_test_at'>,
): ModelTestState {
  if (model.last_test_status === 'success')
    return { kind: 'success', latencyMs: model.last_test_latency_ms, at: model.last_test_at };
  if (model.last_test_status === 'failed')
    return { kind: 'failed', message: model.last_test_message ?? '', at: model.last_test_at };
  return { kind: 'never' };
}
