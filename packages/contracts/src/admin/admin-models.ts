import { z } from 'zod';
import { AI_PROVIDERS } from '../chat.js';
import { MODEL_KINDS } from '../documents.js';
import { GroupIdsSchema } from './catalog.js';
import { ROW_ID_MAX } from './pagination.js';

export const MODEL_TEST_STATUSES = ['success', 'failed'] as const;

/**
 * A model as the administration sees it. The API key is write-only: only whether one is
 * set and its last four characters ever leave the server.
 */
export const AdminModelSchema = z.object({
  id: z.number(),
  name: z.string(),
  display_name: z.string(),
  provider: z.enum(AI_PROVIDERS),
  api_endpoint: z.string().nullable(),
  api_key_set: z.boolean(),
  /** "…last4", or null without a key. */
  api_key_hint: z.string().nullable(),
  credits_per_chat: z.number(),
  /** `embedding` models turn document passages into vectors and are not offered in the chat. */
  kind: z.enum(MODEL_KINDS),
  context_window: z.number(),
  credits_per_1k_document_tokens: z.number(),
  stream_enabled: z.boolean(),
  image_upload_enabled: z.boolean(),
  is_active: z.boolean(),
  sort_order: z.number(),
  /** Groups allowed to use the model; empty = every group. */
  group_ids: z.array(z.number()),
  last_test_at: z.string().nullable(),
  last_test_status: z.enum(MODEL_TEST_STATUSES).nullable(),
  last_test_message: z.string().nullable(),
  last_test_latency_ms: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminModel = z.infer<typeof AdminModelSchema>;

/** http(s) only: the server calls this address with the key. */
export const HttpUrlSchema = z
  .string({ error: 'validation.url.invalid' })
  .trim()
  .max(1000, 'validation.url.invalid')
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'validation.url.invalid');

const ModelFields = {
  /** The upstream model id, e.g. gpt-4.1-mini; unique. */
  name: z
    .string({ error: 'validation.modelName.required' })
    .trim()
    .min(1, 'validation.modelName.required')
    .max(200, 'validation.modelName.max')
    .regex(/^[^\s]+$/, 'validation.modelName.pattern'),
  display_name: z.string().trim().max(100, 'validation.displayName.max'),
  provider: z.enum(AI_PROVIDERS, { error: 'validation.provider.invalid' }),
  api_endpoint: HttpUrlSchema.nullable(),
  /** Write-only. Absent = keep the stored key; null or '' = remove it. */
  api_key: z.string().trim().max(1000, 'validation.apiKey.max').nullable(),
  credits_per_chat: z
    .number({ error: 'validation.creditsPerChat.invalid' })
    .int('validation.creditsPerChat.invalid')
    .min(0, 'validation.creditsPerChat.invalid')
    .max(1_000_000, 'validation.creditsPerChat.invalid'),
  kind: z.enum(MODEL_KINDS, { error: 'validation.provider.invalid' }),
  context_window: z
    .number({ error: 'validation.contextWindow.invalid' })
    .int('validation.contextWindow.invalid')
    .min(1_000, 'validation.contextWindow.invalid')
    .max(10_000_000, 'validation.contextWindow.invalid'),
  credits_per_1k_document_tokens: z
    .number({ error: 'validation.documentPrice.invalid' })
    .int('validation.documentPrice.invalid')
    .min(0, 'validation.documentPrice.invalid')
    .max(1_000_000, 'validation.documentPrice.invalid'),
  stream_enabled: z.boolean(),
  image_upload_enabled: z.boolean(),
  is_active: z.boolean(),
  sort_order: z.number({ error: 'validation.sort.invalid' }).int('validation.sort.invalid').min(0).max(100_000),
  group_ids: GroupIdsSchema,
};

/** POST /admin/models: name and provider are required. */
export const CreateModelBodySchema = z.object({
  name: ModelFields.name,
  provider: ModelFields.provider,
  display_name: ModelFields.display_name.optional(),
  api_endpoint: ModelFields.api_endpoint.optional(),
  api_key: ModelFields.api_key.optional(),
  credits_per_chat: ModelFields.credits_per_chat.optional(),
  kind: ModelFields.kind.optional(),
  context_window: ModelFields.context_window.optional(),
  credits_per_1k_document_tokens: ModelFields.credits_per_1k_document_tokens.optional(),
  stream_enabled: ModelFields.stream_enabled.optional(),
  image_upload_enabled: ModelFields.image_upload_enabled.optional(),
  is_active: ModelFields.is_active.optional(),
  sort_order: ModelFields.sort_order.optional(),
  group_ids: ModelFields.group_ids.optional(),
});
export type CreateModelBody = z.infer<typeof CreateModelBodySchema>;
export const UpdateModelBodySchema = CreateModelBodySchema.partial();
export type UpdateModelBody = z.infer<typeof UpdateModelBodySchema>;

export const ModelTestResultSchema = z.object({
  /** Whether the model answered; `status` says the same in words (a failed test still answers 200). */
  success: z.boolean(),
  status: z.enum(MODEL_TEST_STATUSES),
  latency_ms: z.number(),
  /** The upstream's error (key masked), or a short success note. */
  message: z.string(),
  model: AdminModelSchema,
});
export type ModelTestResult = z.infer<typeof ModelTestResultSchema>;

export const SortOrderBodySchema = z.object({
  sort_orders: z
    .array(
      z.object({
        id: z.number().int().min(1).max(ROW_ID_MAX),
        sort_order: ModelFields.sort_order,
      }),
      { error: 'validation.sortOrders.invalid' },
    )
    .min(1, 'validation.sortOrders.invalid')
    .max(1000, 'validation.sortOrders.invalid'),
});
export type SortOrderBody = z.infer<typeof SortOrderBodySchema>;

/**
 * POST /admin/models/discover: either an endpoint with its key (before the model exists)
 * or an existing model whose stored endpoint and key are used.
 */
export const DiscoverModelsBodySchema = z.union([
  z.object({ model_id: z.number().int().min(1).max(ROW_ID_MAX) }),
  z.object({
    provider: ModelFields.provider,
    api_endpoint: ModelFields.api_endpoint.optional(),
    api_key: ModelFields.api_key.optional(),
  }),
]);
export type DiscoverModelsBody = z.infer<typeof DiscoverModelsBodySchema>;
export const DiscoverModelsResultSchema = z.object({ models: z.array(z.string()) });
