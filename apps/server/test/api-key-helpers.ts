import type { ApiKeyPeriod } from '@aiplatform/contracts';
import { hashSecret, newSecret, prefixOf } from '../src/modules/api-keys/api-key-secrets.js';
import { ApiKeysRepo } from '../src/modules/api-keys/api-keys.repo.js';
import type { TestApp } from './test-app.js';

export interface TestKeyOptions {
  name: string;
  models: string[];
  credit_limit: number | null;
  period: ApiKeyPeriod | null;
  expires_at: string | null;
  ip_allow: string[];
  rpm: number | null;
}

/**
 * A live API key of this user, written straight to the database (no permission needed to
 * make it; using it still needs `api.keys`: see `grantApiKeys`). Answers the secret to send
 * as `Authorization: Bearer …`.
 */
export async function createApiKeyForTest(
  t: TestApp,
  userId: number,
  opts: Partial<TestKeyOptions> = {},
): Promise<{ id: number; secret: string }> {
  const secret = newSecret();
  const id = await new ApiKeysRepo(t.db).insert({
    user_id: userId,
    name: opts.name ?? 'test key',
    prefix: prefixOf(secret),
    secret_hash: hashSecret(secret),
    models: JSON.stringify(opts.models ?? []),
    credit_limit: opts.credit_limit ?? null,
    period: opts.period ?? (opts.credit_limit ? 'total' : null),
    expires_at: opts.expires_at ?? null,
    ip_allow: JSON.stringify(opts.ip_allow ?? []),
    rpm: opts.rpm ?? null,
    last_used_at: null,
    created_at: t.clock.now().toISOString(),
    revoked_at: null,
  });
  return { id, secret };
}

/** Grants the user `api.keys` (a per-user grant, as a super administrator would) and announces it. */
export async function grantApiKeys(t: TestApp, userId: number): Promise<void> {
  await t.db
    .insertInto('user_permissions')
    .values({ user_id: userId, permission: 'api.keys', created_at: t.clock.now().toISOString() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await t.sessionCache.changed();
}

/** A signed-up user holding `api.keys`, with a live key. */
export async function keyHolder(
  t: TestApp,
  opts: Partial<TestKeyOptions> = {},
): Promise<{ userId: number; accessToken: string; id: number; secret: string }> {
  const { session } = await t.signUp();
  await grantApiKeys(t, session.user.id);
  const key = await createApiKeyForTest(t, session.user.id, opts);
  return { userId: session.user.id, accessToken: session.accessToken, ...key };
}
