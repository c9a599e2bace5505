import {
  API_KEY_LIMITS,
  type ApiKey,
  type ApiKeyModel,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { AiModelRow, Database } from '../../db/types.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import type { ApiKeyAuth } from './api-key-auth.js';
import { presentApiKey } from './api-key.presenter.js';
import { hashSecret, newSecret, prefixOf } from './api-key-secrets.js';
import type { ApiKeySpendRepo } from './api-key-spend.repo.js';
import type { ApiKeysRepo } from './api-keys.repo.js';

/** The fields of a new key once the body's defaults are applied. */
export type NewApiKeyFields = Required<{
  [K in keyof CreateApiKeyBody]: Exclude<CreateApiKeyBody[K], undefined>;
}>;

/** A person's own API keys: made, listed and revoked by their owner (who holds `api.keys`). */
export class ApiKeysService {
  constructor(
    private readonly d: {
      db: Kysely<Database>;
      repo: ApiKeysRepo;
      spend: ApiKeySpendRepo;
      auth: ApiKeyAuth;
      clock: Clock;
      /** The active models (chat and embedding) a group's members may use, as /v1 offers them. */
      usableModels: (groupId: number | null) => Promise<Pick<AiModelRow, 'name' | 'display_name' | 'kind'>[]>;
    },
  ) {}

  /** The models a key of this user may be limited to: the ones /v1 would let them call. */
  async models(groupId: number | null): Promise<ApiKeyModel[]> {
    const rows = await this.d.usableModels(groupId);
    return rows.map((m) => ({ name: m.name, display_name: m.display_name || m.name, kind: m.kind }));
  }

  /** The user's keys, newest first, each with what it spent in its current period. */
  async list(userId: number): Promise<ApiKey[]> {
    const rows = await this.d.repo.listOfUser(userId);
    const spent = await this.d.spend.spentInPeriod(rows, this.d.clock.now());
    return rows.map((r) => presentApiKey(r, spent.get(r.id) ?? 0));
  }

  /**
   * Makes a key. Its secret is answered this once: only its SHA-256 and a short prefix are
   * stored, so it can never be shown again.
   */
  async create(userId: number, body: NewApiKeyFields): Promise<CreatedApiKey> {
    const secret = newSecret();
    const now = iso(this.d.clock.now());
    // A key that has expired before it was made would only ever be refused.
    if (body.expires_at !== null && Date.parse(body.expires_at) <= Date.parse(now)) {
      throw new InputError(['validation.personalKey.expiresAt']);
    }
    const id = await this.d.db.transaction().execute(async (trx) => {
      if ((await this.d.repo.countLive(userId, now, trx)) >= API_KEY_LIMITS.liveKeysPerUser) {
        throw new AppError('API_KEY_LIMIT_REACHED');
      }
      return this.d.repo.insert(
        {
          user_id: userId,
          name: body.name,
          prefix: prefixOf(secret),
          secret_hash: hashSecret(secret),
          models: JSON.stringify([...new Set(body.models)]),
          credit_limit: body.credit_limit,
          period: body.period,
          expires_at: body.expires_at === null ? null : iso(new Date(body.expires_at)),
          ip_allow: JSON.stringify([...new Set(body.ip_allow)]),
          rpm: body.rpm,
          last_used_at: null,
          created_at: now,
          revoked_at: null,
        },
        trx,
      );
    });
    const row = await this.d.repo.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    return { key: presentApiKey(row, 0), secret };
  }

  /** Revokes one of the user's own live keys at once on every instance; another's key is not found. */
  async revoke(userId: number, id: number): Promise<{ id: number }> {
    const row = await this.d.repo.findById(id);
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND');
    // A key already revoked is no live key by that id, as for administrators.
    if (!(await this.d.repo.revoke(id, iso(this.d.clock.now()), this.d.db))) throw new AppError('NOT_FOUND');
    await this.d.auth.changed();
    return { id };
  }
}
