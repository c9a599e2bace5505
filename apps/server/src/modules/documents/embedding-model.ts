import { PROVIDER_DEFAULT_BASE } from '@aiplatform/contracts';
import { embedTexts } from '../../ai/embeddings.js';
import type { SecretBox } from '../../lib/auth/secret-box.js';
import type { ModelsRepo } from '../models/models.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { QueryEmbedder } from './retrieval.js';

/** The embedding model set up now, ready to call. */
export interface CurrentEmbeddingModel {
  /** The model's name: what `document_chunks.embedding_model` records. */
  name: string;
  /** Credits per 1,000 tokens embedded; 0 while the site's credits are switched off. */
  creditsPer1k: number;
  embed(texts: readonly string[], signal: AbortSignal): Promise<number[][]>;
}

/** A question waits this long for its vector; then the search ranks by full text alone. */
const QUERY_TIMEOUT_MS = 10_000;

/**
 * The model named by the setting `knowledge.embedding_model`, when it is an active model of
 * kind `embedding` reachable by the OpenAI embeddings API (OpenAI or OpenAI-compatible);
 * otherwise none, and documents are searched by full text alone. Read afresh on every use
 * (settings and the model row are cheap to read), so a change by an administrator is seen by
 * every instance without anything to invalidate.
 */
export class EmbeddingModel implements QueryEmbedder {
  constructor(
    private readonly settings: SettingsService,
    private readonly models: ModelsRepo,
    private readonly box: SecretBox,
  ) {}

  async current(): Promise<CurrentEmbeddingModel | null> {
    const settings = await this.settings.getSettings();
    const name = settings.knowledge.embedding_model.trim();
    if (!name) return null;
    const row = await this.models.findByName(name);
    if (!row || row.is_active !== 1 || row.kind !== 'embedding') return null;
    if (row.provider !== 'openai' && row.provider !== 'openai_compatible') return null;
    const baseUrl = row.api_endpoint?.trim() || PROVIDER_DEFAULT_BASE[row.provider];
    if (!baseUrl) return null;
    const sealed = row.api_key_encrypted;
    return {
      name: row.name,
      // With credits switched off nothing is charged, as a chat turn is not.
      creditsPer1k: settings.credits.enabled ? row.credits_per_1k_document_tokens : 0,
      // The key is opened only for the call, never kept.
      embed: (texts, signal) =>
        embedTexts(
          { baseUrl, modelId: row.name, apiKey: sealed ? this.box.decrypt(sealed) : undefined },
          texts,
          signal,
        ),
    };
  }

  /** The question's vector by the model set up now; null when none is (Retrieval catches a failed call). */
  async embedQuery(query: string): Promise<{ model: string; vector: Float32Array } | null> {
    const model = await this.current();
    if (!model) return null;
    const [vector] = await model.embed([query], AbortSignal.timeout(QUERY_TIMEOUT_MS));
    return vector ? { model: model.name, vector: Float32Array.from(vector) } : null;
  }
}
