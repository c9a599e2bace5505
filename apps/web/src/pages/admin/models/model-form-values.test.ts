import type { AdminModel } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import {
  apiKeyPart,
  canCreateDiscovered,
  discoverBodyOf,
  discoveredModelBodies,
  keyNeededAgain,
  modelBodyOf,
  modelFormValuesOf,
} from './model-form-values';

const MODEL: AdminModel = {
  id: 7,
  name: 'gpt-x',
  display_name: 'GPT X',
  provider: 'openai_compatible',
  api_endpoint: 'https://llm.example.com/v1',
  api_key_set: true,
  api_key_hint: '…abcd',
  credits_per_chat: 5,
  stream_enabled: true,
  image_upload_enabled: false,
  is_active: true,
  sort_order: 20,
  kind: 'chat',
  context_window: 128_000,
  credits_per_1k_document_tokens: 0,
  group_ids: [3],
  last_test_at: null,
  last_test_status: null,
  last_test_message: null,
  last_test_latency_ms: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('apiKeyPart', () => {
  it('leaves the stored key alone when nothing is typed', () => {
    expect(apiKeyPart('', false)).toEqual({});
    expect(apiKeyPart('   ', false)).toEqual({});
    expect(apiKeyPart(undefined, false)).toEqual({});
  });

  it('sends a typed key, trimmed', () => {
    expect(apiKeyPart(' sk-new ', false)).toEqual({ api_key: 'sk-new' });
  });

  it('sends null to remove the key, whatever was typed', () => {
    expect(apiKeyPart('sk-new', true)).toEqual({ api_key: null });
  });
});

describe('modelBodyOf', () => {
  it('carries the kind, context window and document price, kept on edit and defaulted on create', () => {
    const embedding = {
      ...MODEL,
      kind: 'embedding' as const,
      context_window: 8_192,
      credits_per_1k_document_tokens: 3,
    };
    expect(modelBodyOf(modelFormValuesOf(embedding, 0), false)).toMatchObject({
      kind: 'embedding',
      context_window: 8_192,
      credits_per_1k_document_tokens: 3,
    });
    expect(modelBodyOf({ ...modelFormValuesOf(null, 0), name: 'new' }, false)).toMatchObject({
      kind: 'chat',
      context_window: 128_000,
      credits_per_1k_document_tokens: 0,
    });
  });

  it('never echoes a key for an edited model when none was typed', () => {
    const body = modelBodyOf(modelFormValuesOf(MODEL, 0), false);
    expect(body).not.toHaveProperty('api_key');
    expect(body).toMatchObject({ name: 'gpt-x', display_name: 'GPT X', group_ids: [3], sort_order: 20 });
  });

  it('sends "every group" as an empty list and an empty address as null', () => {
    const values = { ...modelFormValuesOf(MODEL, 0), group_scope: 'all' as const, api_endpoint: ' ' };
    expect(modelBodyOf(values, false)).toMatchObject({ group_ids: [], api_endpoint: null });
  });

  it('uses the model id as display name when none is given', () => {
    const values = { ...modelFormValuesOf(null, 30), name: ' m1 ', display_name: '' };
    expect(modelBodyOf(values, false)).toMatchObject({ name: 'm1', display_name: 'm1', sort_order: 30 });
  });
});

describe('discoverBodyOf', () => {
  const values = { provider: 'openai_compatible' as const, api_endpoint: 'https://x.example/v1', api_key: '' };

  it('asks with the stored key of an edited model when no new key is typed (same server)', () => {
    const body = discoverBodyOf({ ...values, api_endpoint: 'https://llm.example.com/v2' }, MODEL, false);
    expect(body).toEqual({ model_id: 7 });
    expect(canCreateDiscovered(body)).toBe(false);
  });

  it('asks with the typed key and address otherwise', () => {
    const body = discoverBodyOf({ ...values, api_key: ' sk-1 ' }, MODEL, false);
    expect(body).toEqual({ provider: 'openai_compatible', api_endpoint: 'https://x.example/v1', api_key: 'sk-1' });
    expect(canCreateDiscovered(body)).toBe(true);
  });

  it('does not use a key that is about to be removed, nor for a new model', () => {
    expect(discoverBodyOf(values, MODEL, true)).toEqual({
      provider: 'openai_compatible',
      api_endpoint: 'https://x.example/v1',
    });
    expect(discoverBodyOf({ ...values, api_endpoint: '' }, null, false)).toEqual({ provider: 'openai_compatible' });
  });
});

describe('keyNeededAgain', () => {
  const reach = (api_endpoint: string, provider = MODEL.provider) => ({ provider, api_endpoint });

  it('asks for the key again when the address moves to another scheme, host or port', () => {
    expect(keyNeededAgain(MODEL, reach('https://attacker.example/v1'))).toBe(true);
    expect(keyNeededAgain(MODEL, reach('http://llm.example.com/v1'))).toBe(true);
    expect(keyNeededAgain(MODEL, reach('https://llm.example.com:8443/v1'))).toBe(true);
  });

  it('keeps the stored key for another path on the same server, or an address still being typed', () => {
    expect(keyNeededAgain(MODEL, reach(' https://LLM.example.com:443/v2/ '))).toBe(false);
    expect(keyNeededAgain(MODEL, reach('https://'))).toBe(false);
  });

  it('counts the provider’s own address as its origin', () => {
    const openai = { ...MODEL, provider: 'openai' as const, api_endpoint: null };
    expect(keyNeededAgain(openai, reach('', 'openai'))).toBe(false);
    expect(keyNeededAgain(openai, reach('https://api.openai.com/v1', 'openai'))).toBe(false);
    expect(keyNeededAgain(openai, reach('https://proxy.example/v1', 'openai'))).toBe(true);
    expect(keyNeededAgain(openai, reach('', 'anthropic'))).toBe(true);
  });

  it('has nothing to ask for without a stored key or for a new model', () => {
    expect(keyNeededAgain({ ...MODEL, api_key_set: false }, reach('https://attacker.example/v1'))).toBe(false);
    expect(keyNeededAgain(null, reach('https://attacker.example/v1'))).toBe(false);
  });

  it('discovery on another server asks with the form, never with the stored key', () => {
    const values = { ...reach('https://attacker.example/v1'), api_key: '' };
    expect(discoverBodyOf(values, MODEL, false)).toEqual({
      provider: 'openai_compatible',
      api_endpoint: 'https://attacker.example/v1',
    });
  });
});

describe('discoveredModelBodies', () => {
  it('creates one model per id with the same provider, address and key', () => {
    const values = { ...modelFormValuesOf(null, 0), api_endpoint: 'https://x.example/v1', api_key: 'sk-1' };
    expect(discoveredModelBodies(['a', 'b'], values, 40)).toEqual([
      expect.objectContaining({ name: 'a', display_name: 'a', api_key: 'sk-1', sort_order: 40 }),
      expect.objectContaining({ name: 'b', display_name: 'b', api_key: 'sk-1', sort_order: 50 }),
    ]);
  });
});
