import {
  type AdminModel,
  type CreateModelBody,
  sendsKeyElsewhere,
  type DiscoverModelsBody,
  type Language,
  type ModelTestResult,
  type SortOrderBody,
  type UpdateModelBody,
} from '@aiplatform/contracts';
import type { Updateable } from 'kysely';
import type { AiModelRow, AiModelsTable, Db } from '../../db/types.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import type { SecretBox } from '../../lib/auth/secret-box.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize, listScope } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { CatalogGrantsRepo } from '../catalog/catalog-grants.repo.js';
import { CatalogItems } from '../catalog/catalog-items.js';
import { modelSnapshot, testSnapshot, toAdminModel } from './admin-model.presenter.js';
import type { AdminModelsRepo } from './admin-models.repo.js';
import { discoverModels } from './model-discovery.js';
import { keyFacts, openKey } from './model-key.js';
import { type TestOutcome, testConnection } from './model-probe.js';

const TARGET = 'model';

/** Fields of a body that map one to one onto columns. */
const PLAIN_FIELDS = [
  'name',
  'provider',
  'credits_per_chat',
  'sort_order',
  'kind',
  'context_window',
  'credits_per_1k_document_tokens',
] as const;
const FLAGS = ['stream_enabled', 'image_upload_enabled', 'is_active'] as const;
/** A change to any of these makes the stored test result describe another configuration. */
const REACH_FIELDS = ['name', 'provider', 'api_endpoint', 'api_key_encrypted'] as const;

/** The provider and endpoint a patch sets, for comparing where the key would go. */
const pick = (patch: Updateable<AiModelsTable>) => ({
  ...(patch.provider !== undefined ? { provider: patch.provider } : {}),
  ...(patch.api_endpoint !== undefined ? { api_endpoint: patch.api_endpoint } : {}),
});

const UNREADABLE_KEY = 'The stored API key cannot be decrypted (was the application secret changed?); enter it again';

export interface AdminModelsDeps {
  repo: AdminModelsRepo;
  /** The groups each model is granted to. */
  grants: CatalogGrantsRepo;
  box: SecretBox;
  tx: AdminTransactions;
  /** The settings' `credits.default_credits_per_chat` is the price of a model created without one. */
  defaultCreditsPerChat: () => Promise<number>;
  /** Time limits of the upstream calls; tests shorten them. */
  testTimeoutMs?: number;
  discoverTimeoutMs?: number;
}

/**
 * AI models as administrators run them: CRUD with a write-only key, group availability,
 * order, a connection test and model discovery. Whoever manages models changes them; a
 * group administrator reads the models their group may use and nothing else.
 */
export class AdminModelsService {
  private readonly items: CatalogItems<AiModelRow, AdminModel, Updateable<AiModelsTable>>;

  constructor(private readonly d: AdminModelsDeps) {
    this.items = new CatalogItems({
      grants: d.grants,
      store: d.repo,
      tx: d.tx,
      present: (row, groupIds) => this.toModel(row, groupIds),
      snapshot: modelSnapshot,
    });
  }

  async list(actor: Actor): Promise<AdminModel[]> {
    const scope = listScope(actor, 'model.read');
    return this.presentAll(scope.all ? {} : { availableToGroup: scope.groupId }, scope.all);
  }

  async groups(actor: Actor, id: number): Promise<{ group_ids: number[] }> {
    const scope = listScope(actor, 'model.read');
    const visible = scope.all
      ? (await this.d.repo.findById(id)) !== undefined
      : await this.d.repo.isAvailableTo(id, scope.groupId);
    if (!visible) throw new AppError('NOT_FOUND');
    return { group_ids: await this.d.grants.groupIds(id) };
  }

  async create(ctx: AdminContext, body: CreateModelBody): Promise<AdminModel> {
    authorize(ctx.actor, 'model.manage');
    const defaultPrice = body.credits_per_chat ?? (await this.d.defaultCreditsPerChat());
    return this.nameConflicts(() =>
      this.items.create(ctx, body.group_ids ?? [], (trx, now) =>
        this.d.repo.insert(
          {
            name: body.name,
            display_name: body.display_name || body.name,
            provider: body.provider,
            api_key_encrypted: body.api_key ? this.d.box.encrypt(body.api_key) : null,
            api_endpoint: body.api_endpoint ?? null,
            is_active: body.is_active === false ? 0 : 1,
            credits_per_chat: defaultPrice,
            // Absent, the columns' defaults: a chat model, 128,000 tokens, document tokens free.
            ...(body.kind !== undefined ? { kind: body.kind } : {}),
            ...(body.context_window !== undefined ? { context_window: body.context_window } : {}),
            ...(body.credits_per_1k_document_tokens !== undefined
              ? { credits_per_1k_document_tokens: body.credits_per_1k_document_tokens }
              : {}),
            stream_enabled: body.stream_enabled === false ? 0 : 1,
            image_upload_enabled: body.image_upload_enabled ? 1 : 0,
            sort_order: body.sort_order ?? 0,
            last_test_at: null,
            last_test_status: null,
            last_test_message: null,
            last_test_latency_ms: null,
            created_at: now,
            updated_at: now,
          },
          trx,
        ),
      ),
    );
  }

  async update(ctx: AdminContext, id: number, body: UpdateModelBody): Promise<AdminModel> {
    return this.nameConflicts(() =>
      this.items.change(ctx, id, 'model.update', body.group_ids, (row, _now, notes) => {
        const patch: Updateable<AiModelsTable> = {};
        for (const field of PLAIN_FIELDS) {
          if (body[field] !== undefined) Object.assign(patch, { [field]: body[field] });
        }
        for (const flag of FLAGS) {
          if (body[flag] !== undefined) patch[flag] = body[flag] ? 1 : 0;
        }
        // An empty display name falls back to the model id, as on create.
        if (body.display_name !== undefined) patch.display_name = body.display_name || (body.name ?? row.name);
        if (body.api_endpoint !== undefined) patch.api_endpoint = body.api_endpoint;
        // The key is write-only: absent keeps it, null or '' removes it, a value replaces it.
        if (body.api_key !== undefined) {
          patch.api_key_encrypted = body.api_key ? this.d.box.encrypt(body.api_key) : null;
          // A new key with the same last four characters leaves the snapshot unchanged; say so anyway.
          if (body.api_key) notes.key_changed = true;
        } else if (row.api_key_encrypted && sendsKeyElsewhere(row, { ...row, ...pick(patch) })) {
          // The stored key was entered for another server: pointing the model elsewhere
          // without a new key would hand the old one to whoever runs the new address.
          patch.api_key_encrypted = null;
          notes.key_cleared = 'endpoint_origin_changed';
        }
        if (REACH_FIELDS.some((f) => patch[f] !== undefined && patch[f] !== row[f])) {
          Object.assign(patch, {
            last_test_at: null,
            last_test_status: null,
            last_test_message: null,
            last_test_latency_ms: null,
          });
        }
        return patch;
      }),
    );
  }

  async setGroups(ctx: AdminContext, id: number, groupIds: number[]): Promise<{ group_ids: number[] }> {
    const model = await this.items.setGroups(ctx, id, groupIds);
    return { group_ids: model.group_ids };
  }

  /** Deletes the model. Conversations keep its name as text, so they stay readable; sending in them is refused. */
  remove(ctx: AdminContext, id: number): Promise<{ id: number }> {
    return this.items.remove(ctx, id);
  }

  /** Sets the order of the given models in one transaction; answers the whole list in the new order. */
  async sort(ctx: AdminContext, body: SortOrderBody): Promise<AdminModel[]> {
    authorize(ctx.actor, 'model.manage');
    const ids = body.sort_orders.map((s) => s.id);
    if (new Set(ids).size !== ids.length) throw new InputError(['validation.sortOrders.invalid']);
    // Ascending id order: two sorts over the same models queue up instead of deadlocking.
    const wanted = [...body.sort_orders].sort((a, b) => a.id - b.id);
    return this.d.tx.run(ctx, async (trx, now) => {
      const before: { id: number; sort_order: number }[] = [];
      for (const { id } of wanted) {
        const row = await this.d.repo.lock(id, trx);
        if (!row) throw new AppError('NOT_FOUND');
        before.push({ id, sort_order: row.sort_order });
      }
      for (const { id, sort_order } of wanted) await this.d.repo.update(id, { sort_order, updated_at: now }, trx);
      return {
        result: await this.presentAll({}, true, trx),
        audit: {
          action: 'model.sort',
          targetType: TARGET,
          targetId: null,
          before: { sort_orders: before },
          after: { sort_orders: wanted },
        },
      };
    });
  }

  /**
   * Calls the model once with its stored configuration and stores the outcome. The call
   * runs before the transaction, so a slow upstream never holds one open. A failure is a
   * result, not an error: the administrator reads the upstream's reason.
   */
  async test(ctx: AdminContext, id: number, lang: Language = 'en-US'): Promise<ModelTestResult> {
    authorize(ctx.actor, 'model.manage');
    const row = await this.d.repo.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    const outcome = await this.probe(row, lang);
    return this.d.tx.run(ctx, async (trx, now) => {
      const locked = await this.d.repo.lock(id, trx);
      if (!locked) throw new AppError('NOT_FOUND');
      const before = this.toModel(locked, await this.d.grants.groupIds(id, trx));
      await this.d.repo.update(
        id,
        {
          last_test_at: now,
          last_test_status: outcome.status,
          last_test_message: outcome.message,
          last_test_latency_ms: outcome.latencyMs,
        },
        trx,
      );
      const model = await this.items.read(id, trx);
      return {
        result: {
          success: outcome.status === 'success',
          status: outcome.status,
          latency_ms: outcome.latencyMs,
          message: outcome.message,
          model,
        },
        audit: {
          action: 'model.test',
          targetType: TARGET,
          targetId: id,
          before: testSnapshot(before),
          after: testSnapshot(model),
        },
      };
    });
  }

  /** The model ids an endpoint offers, with a key typed in or with a stored model's endpoint and key. */
  async discover(actor: Actor, body: DiscoverModelsBody, lang: Language = 'en-US'): Promise<{ models: string[] }> {
    authorize(actor, 'model.manage');
    const timeout = this.d.discoverTimeoutMs;
    if ('model_id' in body) {
      const row = await this.d.repo.findById(body.model_id);
      if (!row) throw new AppError('NOT_FOUND');
      let apiKey: string | undefined;
      try {
        apiKey = openKey(this.d.box, row.api_key_encrypted);
      } catch {
        throw new AppError('UPSTREAM_UNREACHABLE', { detail: UNREADABLE_KEY });
      }
      const stored = { provider: row.provider, endpoint: row.api_endpoint, apiKey };
      return { models: await discoverModels(stored, timeout, lang) };
    }
    const target = { provider: body.provider, endpoint: body.api_endpoint, apiKey: body.api_key || undefined };
    return { models: await discoverModels(target, timeout, lang) };
  }

  private async probe(row: AiModelRow, lang: Language): Promise<TestOutcome> {
    let apiKey: string | undefined;
    try {
      apiKey = openKey(this.d.box, row.api_key_encrypted);
    } catch {
      return { status: 'failed', latencyMs: 0, message: UNREADABLE_KEY };
    }
    return testConnection(
      { provider: row.provider, modelId: row.name, apiKey, endpoint: row.api_endpoint },
      this.d.testTimeoutMs,
      lang,
    );
  }

  private toModel(row: AiModelRow, groupIds: number[], withHint = true): AdminModel {
    const key = keyFacts(this.d.box, row.api_key_encrypted);
    return toAdminModel(row, groupIds, withHint ? key : { set: key.set, hint: null });
  }

  /** A group administrator reads the list without key hints: they never manage keys. */
  private async presentAll(filter: { availableToGroup?: number }, withHint: boolean, db?: Db): Promise<AdminModel[]> {
    const rows = await this.d.repo.list(filter, db);
    const groups = await this.d.grants.groupIdsOf(
      rows.map((r) => r.id),
      db,
    );
    return rows.map((r) => this.toModel(r, groups.get(r.id) ?? [], withHint));
  }

  /** The unique index on the name settles races that a lookup first could miss. */
  private async nameConflicts<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT_MODEL_NAME');
      throw err;
    }
  }
}
