import { describe, expect, it, vi } from 'vitest';
import type { AiModelRow } from '../../db/types.js';
import { systemClock } from '../../lib/runtime/clock.js';
import { SecretBox } from '../../lib/auth/secret-box.js';
import type { ModelsRepo } from './models.repo.js';
import { ModelsService } from './models.service.js';

const box = new SecretBox('a-test-secret-that-is-long-enough-0123456789');
// Sealed once: each sealing uses a fresh IV, so a second one is a different stored key.
const FIRST_KEY = box.encrypt('sk-first');
const SECOND_KEY = box.encrypt('sk-second');

function row(patch: Partial<AiModelRow> = {}): AiModelRow {
  return {
    id: 1,
    name: 'gpt-test',
    display_name: 'GPT test',
    provider: 'openai_compatible',
    api_key_encrypted: FIRST_KEY,
    api_endpoint: 'http://127.0.0.1:9/v1',
    is_active: 1,
    credits_per_chat: 10,
    stream_enabled: 1,
    image_upload_enabled: 0,
    sort_order: 0,
    last_test_at: null,
    last_test_status: null,
    last_test_message: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...patch,
  } as AiModelRow;
}

describe('provider models built once per model configuration', () => {
  it('reuses the provider and the decrypted key while the configuration stays, with the current row', () => {
    const decrypt = vi.spyOn(box, 'decrypt');
    const models = new ModelsService({} as ModelsRepo, box, systemClock);
    const first = models.callable(row());
    const again = models.callable(row({ credits_per_chat: 20, display_name: 'Renamed' }));
    expect(again.languageModel).toBe(first.languageModel);
    expect(again.apiKey).toBe('sk-first');
    expect(again.row.credits_per_chat).toBe(20);
    expect(decrypt).toHaveBeenCalledTimes(1);
    decrypt.mockRestore();
  });

  it('builds anew when the key, endpoint, provider or name changes', () => {
    const models = new ModelsService({} as ModelsRepo, box, systemClock);
    const first = models.callable(row());
    const newKey = models.callable(row({ api_key_encrypted: SECOND_KEY }));
    expect(newKey.languageModel).not.toBe(first.languageModel);
    expect(newKey.apiKey).toBe('sk-second');
    const newEndpoint = models.callable(row({ api_key_encrypted: SECOND_KEY, api_endpoint: 'http://x/v1' }));
    expect(newEndpoint.languageModel).not.toBe(newKey.languageModel);
    const otherModel = models.callable(row({ id: 2 }));
    expect(otherModel.languageModel).not.toBe(first.languageModel);
  });
});
