import { type AiProvider, type ChatModel, LIMITS, type ModelKind } from '@aiplatform/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { LanguageModel } from 'ai';
import { createLanguageModel } from '../../ai/providers.js';
import type { AiModelRow } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import type { SecretBox } from '../../lib/auth/secret-box.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ModelsRepo } from './models.repo.js';

export interface NewModelInput {
  name: string;
  display_name?: string;
  provider: AiProvider;
  /** Plain text; stored encrypted. */
  api_key?: string | null;
  api_endpoint?: string | null;
  is_active?: boolean;
  credits_per_chat?: number;
  stream_enabled?: boolean;
  image_upload_enabled?: boolean;
  sort_order?: number;
  kind?: ModelKind;
  context_window?: number;
  credits_per_1k_document_tokens?: number;
  /** Groups allowed to use the model; empty or absent = every group. */
  group_ids?: number[];
}

/** A model ready to call: its row, and the SDK model holding the decrypted key. */
export interface CallableModel {
  row: AiModelRow;
  languageModel: LanguageModel;
  /** Kept only to mask the key should an upstream message echo it into a log line. */
  apiKey: string | undefined;
}

export const toChatModel = (m: AiModelRow): ChatModel => ({
  id: m.id,
  name: m.name,
  display_name: m.display_name,
  provider: m.provider,
  credits_per_chat: m.credits_per_chat,
  stream_enabled: m.stream_enabled === 1,
  image_upload_enabled: m.image_upload_enabled === 1,
  sort_order: m.sort_order,
  context_window: m.context_window,
  credits_per_1k_document_tokens: m.credits_per_1k_document_tokens,
});

/** Configured AI models: who may use which, and how to reach them. Keys never leave this service in clear. */
export class ModelsService {
  /** Built provider models by model id, with what they were built from. */
  private readonly providers = new Map<number, { fingerprint: string; model: CallableModel }>();

  constructor(
    private readonly repo: ModelsRepo,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** Active models the user's group may use, in the administrators' order. */
  async listForUser(groupId: number | null): Promise<ChatModel[]> {
    return (await this.repo.findUsable(groupId)).map(toChatModel);
  }

  /** Active chat and embedding models the group may use (the personal API offers both). */
  listForApi(groupId: number | null): Promise<AiModelRow[]> {
    return this.repo.findUsableAnyKind(groupId);
  }

  /** The name people see for a model: its current display name, or its id when it has none or is gone. */
  async displayName(name: string): Promise<string> {
    return (await this.repo.findByName(name))?.display_name || name;
  }

  /** The active model of that name if the group may use it; else MODEL_UNAVAILABLE. */
  async findUsable(name: string, groupId: number | null): Promise<AiModelRow> {
    const model = await this.repo.findUsableByName(name, groupId);
    if (!model) throw new AppError('MODEL_UNAVAILABLE');
    return model;
  }

  /**
   * Decrypts the key and builds the provider model; a configuration that cannot work is
   * MODEL_UNAVAILABLE. Both are kept per model and reused while the row's provider, name,
   * endpoint and sealed key stay the same: the row is read afresh on every send, so an
   * administrator's change is seen by the next send on every instance, with nothing to
   * invalidate. One entry per model, so the cache is as small as the model list.
   */
  callable(row: AiModelRow): CallableModel {
    const fingerprint = [row.provider, row.name, row.api_endpoint ?? '', row.api_key_encrypted ?? ''].join('\u0000');
    const cached = this.providers.get(row.id);
    if (cached?.fingerprint === fingerprint) return { ...cached.model, row };
    try {
      const apiKey = row.api_key_encrypted ? this.box.decrypt(row.api_key_encrypted) : undefined;
      const languageModel = createLanguageModel({
        provider: row.provider,
        modelId: row.name,
        apiKey,
        endpoint: row.api_endpoint,
      });
      const model = { row, languageModel, apiKey };
      this.providers.set(row.id, { fingerprint, model });
      return model;
    } catch (err) {
      this.providers.delete(row.id);
      throw new AppError('MODEL_UNAVAILABLE', {}, undefined, err);
    }
  }

  /** Creates a model with its key sealed; returns its id. */
  async create(input: NewModelInput): Promise<number> {
    const now = this.clock.now().toISOString();
    const id = await this.repo.insert({
      name: input.name,
      display_name: input.display_name ?? input.name,
      provider: input.provider,
      api_key_encrypted: input.api_key ? this.box.encrypt(input.api_key) : null,
      api_endpoint: input.api_endpoint ?? null,
      is_active: input.is_active === false ? 0 : 1,
      credits_per_chat: input.credits_per_chat ?? LIMITS.defaultCreditsPerChat,
      stream_enabled: input.stream_enabled === false ? 0 : 1,
      image_upload_enabled: input.image_upload_enabled ? 1 : 0,
      sort_order: input.sort_order ?? 0,
      ...(input.kind ? { kind: input.kind } : {}),
      ...(input.context_window ? { context_window: input.context_window } : {}),
      ...(input.credits_per_1k_document_tokens !== undefined
        ? { credits_per_1k_document_tokens: input.credits_per_1k_document_tokens }
        : {}),
      created_at: now,
      updated_at: now,
    });
    if (input.group_ids?.length) await this.repo.setGroups(id, input.group_ids);
    return id;
  }

  /**
   * First-start convenience: with OPENAI_API_KEY set and no model named like the settings'
   * `ai.default_model`, creates it (OpenAI, or OpenAI-compatible when a base URL is given).
   */
  async seedDefaultModel(
    settings: SettingsService,
    openai: { apiKey: string | undefined; baseUrl: string | undefined },
    log: FastifyBaseLogger,
  ): Promise<void> {
    if (!openai.apiKey) return;
    const name = (await settings.getSettings()).ai.default_model;
    if (!name || (await this.repo.findByName(name))) return;
    const now = this.clock.now().toISOString();
    const inserted = await this.repo.insertIfMissing({
      name,
      display_name: name,
      provider: openai.baseUrl ? 'openai_compatible' : 'openai',
      api_key_encrypted: this.box.encrypt(openai.apiKey),
      api_endpoint: openai.baseUrl ?? null,
      is_active: 1,
      credits_per_chat: LIMITS.defaultCreditsPerChat,
      stream_enabled: 1,
      image_upload_enabled: 0,
      sort_order: 0,
      created_at: now,
      updated_at: now,
    });
    if (inserted) log.info({ model: name }, 'default AI model created from OPENAI_API_KEY');
  }
}
