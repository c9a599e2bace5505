import { effectivePermissions, hasPermission } from '@aiplatform/contracts';
import type { ApiKeyRow, UserRow } from '../../db/types.js';
import { SESSIONS_CHANGED } from '../../lib/auth/session-cache.js';
import { TrustedNetworks } from '../../lib/auth/trusted-networks.js';
import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import type { UsersRepo } from '../users/users.repo.js';
import { hashSecret, sameHash, secretOf } from './api-key-secrets.js';
import type { ApiKeysRepo } from './api-keys.repo.js';

/** The change event of a key revoked or changed: every instance forgets the keys it holds. */
export const API_KEYS_CHANGED = 'api-keys';

/** How long a checked key is trusted without reading it again (revocations empty the cache at once). */
const KEY_CACHE_MS = 10_000;
/** Beyond this many keys the cache starts over rather than grow without bound. */
const MAX_ENTRIES = 10_000;
/** A use is written at most once a minute per key: scripts send many requests. */
const TOUCH_EVERY_MS = 60_000;

/** Who a request with an API key acts as. */
export interface ApiKeyPrincipal {
  key: ApiKeyRow;
  user: UserRow;
}

export type ApiKeyRefusalCode = 'invalid_api_key' | 'ip_not_allowed' | 'permission_denied' | 'rate_limit_exceeded';

/** Why a key was not accepted, with the HTTP status and the code the `/v1` errors carry. */
export class ApiKeyRefusal extends Error {
  constructor(
    readonly status: 401 | 403 | 429,
    readonly code: ApiKeyRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiKeyRefusal';
  }
}

/** A key allows a model when it names no models (all its owner may use) or names this one. */
export function keyAllowsModel(key: ApiKeyRow, modelName: string): boolean {
  const models = parseList(key.models);
  return models.length === 0 || models.includes(modelName);
}

/** A JSON list column as strings; anything else reads as empty. */
export function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

interface Entry {
  key: ApiKeyRow;
  user: UserRow | undefined;
  permissions: readonly string[];
  /** Undefined: the key may be used from anywhere. */
  networks: TrustedNetworks | undefined;
  expiresAt: number;
}

const invalid = () => new ApiKeyRefusal(401, 'invalid_api_key', 'Incorrect API key provided.');

/**
 * Recognises the API key of a request and decides whether it may be used now. Checked keys
 * are kept a few seconds per process; a revocation, and any change to accounts or grants,
 * empties that cache on every instance through the change bus, so it takes effect at once.
 */
export class ApiKeyAuth {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a read begun before it must not refill the cache. */
  private generation = 0;
  private readonly touched = new Map<number, number>();

  constructor(
    private readonly d: {
      repo: ApiKeysRepo;
      users: Pick<UsersRepo, 'findWithGroupById' | 'grantedPermissions'>;
      kv: KvStore;
      clock: Clock;
      changes?: ChangeBus | undefined;
    },
  ) {
    d.changes?.subscribe(API_KEYS_CHANGED, () => this.invalidate());
    d.changes?.subscribe(SESSIONS_CHANGED, () => this.invalidate());
  }

  /**
   * `authorization` is the raw header value ("Bearer sk-…"); `ip` the client address.
   * Throws ApiKeyRefusal: 401 for an unknown, revoked or expired key or an account that is
   * disabled or gone; 403 for an address outside the key's networks or an owner no longer
   * holding `api.keys`; 429 past the key's requests per minute.
   */
  async authenticate(authorization: string | undefined, ip: string): Promise<ApiKeyPrincipal> {
    const secret = secretOf(authorization);
    if (!secret) throw invalid();
    const hash = hashSecret(secret);
    const entry = await this.entryOf(hash);
    const now = this.d.clock.now();
    const { key, user } = entry;
    if (!user || user.status !== 'active' || key.revoked_at !== null) throw invalid();
    if (key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime()) throw invalid();
    if (entry.networks && !entry.networks.has(ip)) {
      throw new ApiKeyRefusal(403, 'ip_not_allowed', 'This API key may not be used from this address.');
    }
    if (!hasPermission(entry.permissions, 'api.keys')) {
      throw new ApiKeyRefusal(403, 'permission_denied', 'The owner of this API key may no longer use API keys.');
    }
    if (key.rpm !== null) {
      const used = await this.d.kv.increment(`api-key-rpm:${key.id}`, 1, 60);
      if (used > key.rpm) {
        throw new ApiKeyRefusal(429, 'rate_limit_exceeded', `This API key allows ${key.rpm} requests per minute.`);
      }
    }
    await this.touch(key.id, now);
    return { key, user };
  }

  /** Forgets every checked key on this instance. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** After a committed revocation: every instance forgets its checked keys (this one at once). */
  async changed(): Promise<void> {
    this.invalidate();
    await this.d.changes?.publish(API_KEYS_CHANGED);
  }

  private async entryOf(hash: string): Promise<Entry> {
    const cached = this.entries.get(hash);
    const startedAt = this.d.clock.now().getTime();
    if (cached && cached.expiresAt > startedAt) return cached;
    this.entries.delete(hash);
    const generation = this.generation;
    const key = await this.d.repo.findByHash(hash);
    // The lookup went by an index on the hash; the stored hash is compared once more in constant time.
    if (!key || !sameHash(key.secret_hash, hash)) throw invalid();
    const [user, granted] = await Promise.all([
      this.d.users.findWithGroupById(key.user_id),
      this.d.users.grantedPermissions(key.user_id),
    ]);
    const entry: Entry = {
      key,
      user,
      permissions: user ? effectivePermissions(user.role, granted) : [],
      networks: networksOf(key),
      expiresAt: startedAt + KEY_CACHE_MS,
    };
    if (generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, entry);
    }
    return entry;
  }

  /** Writes the last use at most once a minute per key from this instance, and only when the row is older. */
  private async touch(id: number, now: Date): Promise<void> {
    const last = this.touched.get(id);
    if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
    if (this.touched.size >= MAX_ENTRIES) this.touched.clear();
    this.touched.set(id, now.getTime());
    await this.d.repo.touch(id, iso(now), iso(new Date(now.getTime() - TOUCH_EVERY_MS)));
  }
}

function networksOf(key: ApiKeyRow): TrustedNetworks | undefined {
  const cidrs = parseList(key.ip_allow);
  if (cidrs.length === 0) return undefined;
  try {
    return new TrustedNetworks(cidrs);
  } catch {
    // Entries are checked when the key is made; one that no longer parses admits nobody.
    return new TrustedNetworks([]);
  }
}
