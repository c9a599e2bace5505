import type { AdminModel } from '@aiplatform/contracts';
import type { AiModelRow } from '../../db/types.js';
import type { KeyFacts } from './model-key.js';

const testStatus = (s: string | null): AdminModel['last_test_status'] => (s === 'success' || s === 'failed' ? s : null);

/** A model row as the administration sees it: never the key, only whether one is set and its hint. */
export function toAdminModel(row: AiModelRow, groupIds: number[], key: KeyFacts): AdminModel {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    provider: row.provider,
    api_endpoint: row.api_endpoint,
    api_key_set: key.set,
    api_key_hint: key.hint,
    credits_per_chat: row.credits_per_chat,
    kind: row.kind,
    context_window: row.context_window,
    credits_per_1k_document_tokens: row.credits_per_1k_document_tokens,
    stream_enabled: row.stream_enabled === 1,
    image_upload_enabled: row.image_upload_enabled === 1,
    is_active: row.is_active === 1,
    sort_order: row.sort_order,
    group_ids: groupIds,
    last_test_at: row.last_test_at,
    last_test_status: testStatus(row.last_test_status),
    last_test_message: row.last_test_message,
    last_test_latency_ms: row.last_test_latency_ms,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * What the audit log compares before and after a change: the configuration, not the
 * timestamps or test results. The key appears as `key_set` / `key_hint` — names the
 * audit redaction leaves alone, unlike `api_key…`, so the record still says the key
 * changed, while the key itself is never in it.
 */
export function modelSnapshot(m: AdminModel): Record<string, unknown> {
  const {
    api_key_set,
    api_key_hint,
    created_at: _created,
    updated_at: _updated,
    last_test_at: _testAt,
    last_test_status: _testStatus,
    last_test_message: _testMessage,
    last_test_latency_ms: _testLatency,
    ...config
  } = m;
  return { ...config, key_set: api_key_set, key_hint: api_key_hint };
}

/** The stored result of the last connection test, for the `model.test` audit row. */
export const testSnapshot = (m: AdminModel) => ({
  last_test_status: m.last_test_status,
  last_test_latency_ms: m.last_test_latency_ms,
  last_test_message: m.last_test_message,
});
