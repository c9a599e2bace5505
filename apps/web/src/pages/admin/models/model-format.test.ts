import { describe, expect, it } from 'vitest';
import { endpointRequired, keyHint, testStateOf } from './model-format';

describe('keyHint', () => {
  it('shows the last characters of a stored key, empty when hidden from the reader, nothing without one', () => {
    expect(keyHint({ api_key_set: true, api_key_hint: '…abcd' })).toBe('…abcd');
    expect(keyHint({ api_key_set: false, api_key_hint: null })).toBeNull();
    expect(keyHint({ api_key_set: true, api_key_hint: null })).toBe('');
  });
});

describe('endpointRequired', () => {
  it('asks for an address only where the provider has no default', () => {
    expect(endpointRequired('openai_compatible')).toBe(true);
    expect(endpointRequired('openai')).toBe(false);
    expect(endpointRequired('anthropic')).toBe(false);
  });
});

describe('testStateOf', () => {
  const base = { last_test_at: null, last_test_message: null, last_test_latency_ms: null };

  it('tells never tested, success with latency and failure with the message apart', () => {
    expect(testStateOf({ ...base, last_test_status: null })).toEqual({ kind: 'never' });
    expect(testStateOf({ ...base, last_test_status: 'success', last_test_latency_ms: 120, last_test_at: 'T' })).toEqual(
      { kind: 'success', latencyMs: 120, at: 'T' },
    );
    expect(testStateOf({ ...base, last_test_status: 'failed', last_test_message: '401 bad key' })).toEqual({
      kind: 'failed',
      message: '401 bad key',
      at: null,
    });
  });
});
