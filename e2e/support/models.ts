/**
 * The AI models of the e2e installation. All of them point at the fake OpenAI-compatible
 * upstream started by global setup; the fake picks its behaviour from the model name
 * (`fake-vision`, `fake-slow`, …) or from `[fake:…]` markers in the message.
 *
 * The default model is seeded by the server itself from OPENAI_API_KEY / OPENAI_BASE_URL;
 * the others are created by seed-models.ts through the server's ModelsService before the
 * server starts. Their sort order puts them after the default model in every list.
 */
export interface E2eModel {
  name: string;
  display_name: string;
  credits_per_chat: number;
  stream_enabled: boolean;
  image_upload_enabled: boolean;
  sort_order: number;
}

/** Seeded by the server on start (settings `ai.default_model`, LIMITS.defaultCreditsPerChat). */
export const DEFAULT_MODEL: E2eModel = {
  name: 'gpt-4.1-mini-op',
  display_name: 'gpt-4.1-mini-op',
  credits_per_chat: 10,
  stream_enabled: true,
  image_upload_enabled: false,
  sort_order: 0,
};

/** Accepts images; the fake answers whether the question carried one. */
export const VISION_MODEL: E2eModel = {
  name: 'fake-vision',
  display_name: 'E2E Vision',
  credits_per_chat: 7,
  stream_enabled: true,
  image_upload_enabled: true,
  sort_order: 10,
};

/** Streaming switched off: the client uses the non-stream call. */
export const PLAIN_MODEL: E2eModel = {
  name: 'fake-echo',
  display_name: 'E2E Non-stream',
  credits_per_chat: 4,
  stream_enabled: false,
  image_upload_enabled: false,
  sort_order: 11,
};

/** Pauses between chunks (longer pauses with `[fake:delay=N]` in the message). */
export const SLOW_MODEL: E2eModel = {
  name: 'fake-slow',
  display_name: 'E2E Slow',
  credits_per_chat: 3,
  stream_enabled: true,
  image_upload_enabled: false,
  sort_order: 12,
};

/** Costs more than a new account holds (1000 by default). */
export const EXPENSIVE_MODEL: E2eModel = {
  name: 'e2e-expensive',
  display_name: 'E2E Expensive',
  credits_per_chat: 5000,
  stream_enabled: true,
  image_upload_enabled: false,
  sort_order: 13,
};

/** Affordable once (600 of 1000), but not twice. */
export const PRICEY_MODEL: E2eModel = {
  name: 'e2e-pricey',
  display_name: 'E2E Pricey',
  credits_per_chat: 600,
  stream_enabled: true,
  image_upload_enabled: false,
  sort_order: 14,
};

export const SEEDED_MODELS: readonly E2eModel[] = [
  VISION_MODEL,
  PLAIN_MODEL,
  SLOW_MODEL,
  EXPENSIVE_MODEL,
  PRICEY_MODEL,
];
