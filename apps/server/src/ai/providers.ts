import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type AiProvider, PROVIDER_DEFAULT_BASE } from '@aiplatform/contracts';
import type { LanguageModel } from 'ai';
import type { ChatCompletionsTarget } from './chat-completions.js';
import { upstreamFetch } from './upstream-fetch.js';

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

const OPENAI_BASE_URL = PROVIDER_DEFAULT_BASE.openai as string;

/** The models whose streamed answers take the lean Chat Completions relay, and where it goes. */
const relayTargets = new WeakMap<object, ChatCompletionsTarget>();

/** The lean relay target of a model built here, or undefined when it streams through the SDK. */
export const chatCompletionsTargetOf = (model: LanguageModel): ChatCompletionsTarget | undefined =>
  typeof model === 'object' ? relayTargets.get(model) : undefined;

/**
 * OpenAI's reasoning models (o1…, gpt-5 and later except their `-chat` variants) take other
 * parameters than plain chat models (no temperature, a developer role): the SDK knows those
 * rules, so they keep its adapter.
 */
export function isOpenAiReasoningModel(modelId: string): boolean {
  if (/^o\d/.test(modelId)) return true;
  const gpt = /^gpt-(\d+)(?:\.\d+)?(-chat)?/.exec(modelId);
  return gpt !== null && Number(gpt[1]) >= 5 && gpt[2] === undefined;
}

function relayTarget(baseURL: string, modelId: string, apiKey: string | undefined): ChatCompletionsTarget {
  return {
    url: new URL(`${baseURL}/chat/completions`),
    modelId,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
  };
}

/**
 * Builds the AI SDK model for a target. OpenAI goes through the Chat Completions API
 * (what every OpenAI-compatible server speaks too), others through their native APIs.
 * Chat Completions models are also registered for the lean streaming relay.
 * Every provider calls through `upstreamFetch`, which refuses redirects: the key is in
 * the request headers and must not follow the answer to another host.
 * Throws when the configuration cannot work (an OpenAI-compatible model without endpoint).
 */
export function createLanguageModel(t: ProviderTarget): LanguageModel {
  const baseURL = t.endpoint?.trim() ? t.endpoint.trim().replace(/\/+$/, '') : undefined;
  switch (t.provider) {
    case 'openai': {
      const model = createOpenAI({
        apiKey: t.apiKey ?? '',
        fetch: upstreamFetch,
        ...(baseURL ? { baseURL } : {}),
      }).chat(t.modelId);
      if (!isOpenAiReasoningModel(t.modelId))
        relayTargets.set(model, relayTarget(baseURL ?? OPENAI_BASE_URL, t.modelId, t.apiKey ?? ''));
      return model;
    }
    case 'openai_compatible': {
      if (!baseURL) throw new Error('an OpenAI-compatible model needs an API endpoint');
      const model = createOpenAICompatible({
        name: 'openai_compatible',
        baseURL,
        fetch: upstreamFetch,
        ...(t.apiKey ? { apiKey: t.apiKey } : {}),
        // Ask for the usage chunk so tokens are counted, not estimated.
        includeUsage: true,
      }).chatModel(t.modelId);
      relayTargets.set(model, relayTarget(baseURL, t.modelId, t.apiKey));
      return model;
    }
    case 'anthropic':
      return createAnthropic({ apiKey: t.apiKey ?? '', fetch: upstreamFetch, ...(baseURL ? { baseURL } : {}) })(
        t.modelId,
      );
    case 'google':
      return createGoogleGenerativeAI({
        apiKey: t.apiKey ?? '',
        fetch: upstreamFetch,
        ...(baseURL ? { baseURL } : {}),
      })(t.modelId);
  }
}
