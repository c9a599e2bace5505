import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { AiProvider } from '@aiplatform/contracts';
import type { LanguageModel } from 'ai';

// The SDK prints warnings (e.g. an unsupported setting) to the console; our logger decides what is logged.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** What the provider layer needs to reach one configured model. */
export interface ProviderTarget {
  provider: AiProvider;
  /** The model id sent upstream (the model's `name`). */
  modelId: string;
  /** Decrypted key; only ever held in memory for the duration of a call. */
  apiKey: string | undefined;
  /** Base URL, e.g. `https://api.deepseek.com/v1` or `http://localhost:11434/v1`; null = provider default. */
  endpoint: string | null;
}

/**
 * Builds the AI SDK model for a target. OpenAI goes through the Chat Completions API
 * (what every OpenAI-compatible server speaks too), others through their native APIs.
 * Throws when the configuration cannot work (an OpenAI-compatible model without endpoint).
 */
export function createLanguageModel(t: ProviderTarget): LanguageModel {
  const baseURL = t.endpoint?.trim() ? t.endpoint.trim().replace(/\/+$/, '') : undefined;
  switch (t.provider) {
    case 'openai':
      return createOpenAI({ apiKey: t.apiKey ?? '', ...(baseURL ? { baseURL } : {}) }).chat(t.modelId);
    case 'openai_compatible':
      if (!baseURL) throw new Error('an OpenAI-compatible model needs an API endpoint');
      return createOpenAICompatible({
        name: 'openai_compatible',
        baseURL,
        ...(t.apiKey ? { apiKey: t.apiKey } : {}),
        // Ask for the usage chunk so tokens are counted, not estimated.
        includeUsage: true,
      }).chatModel(t.modelId);
    case 'anthropic':
      return createAnthropic({ apiKey: t.apiKey ?? '', ...(baseURL ? { baseURL } : {}) })(t.modelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey: t.apiKey ?? '', ...(baseURL ? { baseURL } : {}) })(t.modelId);
  }
}
