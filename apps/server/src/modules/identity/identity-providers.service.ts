import type {
  CreateIdentityProviderBody,
  IdentityProvider,
  IdentityProviderTestResult,
  Language,
  SignInProvider,
  UpdateIdentityProviderBody,
} from '@aiplatform/contracts';
import type { Updateable } from 'kysely';
import type { Db, IdentityProvidersTable } from '../../db/types.js';
import type { SecretBox } from '../../lib/auth/secret-box.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { diff } from '../audit/redact.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import { isRowId } from '../users/users.repo.js';
import type { IdentityProvidersRepo } from './identity-providers.repo.js';
import type { ProviderTesters } from './provider-testers.js';
import { parseIdpMetadata } from './saml/idp-metadata.js';
import {
  type ProviderRecord,
  providerSnapshot,
  sealConfig,
  toIdentityProvider,
  toProviderRecord,
} from './provider-record.js';

const TARGET = 'identity_provider';

export interface IdentityProvidersDeps {
  repo: IdentityProvidersRepo;
  groups: GroupsRepo;
  box: SecretBox;
  /** Its after-commit step tells every instance that providers changed (their caches drop them). */
  tx: AdminTransactions;
  testers: ProviderTesters;
}

/**
 * Identity providers as a super administrator runs them: CRUD with write-only secrets
 * (sealed at rest, absent from answers and audit rows), a connection test, and the
 * providers the sign-in code and the sign-in page read.
 */
export class IdentityProvidersService {
  constructor(private readonly d: IdentityProvidersDeps) {}

  async list(actor: Actor): Promise<IdentityProvider[]> {
    authorize(actor, 'identity.manage');
    return (await this.d.repo.list()).map(toIdentityProvider);
  }

  async get(actor: Actor, id: number): Promise<IdentityProvider> {
    authorize(actor, 'identity.manage');
    const row = await this.d.repo.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    return toIdentityProvider(row);
  }

  async create(ctx: AdminContext, body: CreateIdentityProviderBody): Promise<IdentityProvider> {
    authorize(ctx.actor, 'identity.manage');
    checkSamlMetadata(body);
    return this.slugConflicts(() =>
      this.d.tx.run(ctx, async (trx, now) => {
        await this.checkGroups(body, trx);
        const id = await this.d.repo.insert(
          {
            slug: body.slug,
            name: body.name,
            type: body.type,
            enabled: body.enabled === false ? 0 : 1,
            config: sealConfig(body.type, body.config, this.d.box),
            mapping: JSON.stringify(body.mapping ?? {}),
            jit: body.jit ? 1 : 0,
            link_verified_email: body.link_verified_email ? 1 : 0,
            default_group_id: body.default_group_id ?? null,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        const row = await this.read(id, trx);
        return {
          result: toIdentityProvider(row),
          audit: { action: 'identity_provider.create', targetType: TARGET, targetId: id, after: providerSnapshot(row) },
        };
      }),
    );
  }

  async update(ctx: AdminContext, id: number, body: UpdateIdentityProviderBody): Promise<IdentityProvider> {
    authorize(ctx.actor, 'identity.manage');
    checkSamlMetadata(body);
    return this.slugConflicts(() =>
      this.d.tx.run(ctx, async (trx, now) => {
        const before = await this.read(id, trx);
        // The type decides what the stored config means: a provider keeps its type for life.
        if (body.type !== before.type) throw new InputError(['validation.identityProvider.type']);
        await this.checkGroups(body, trx);
        const patch: Updateable<IdentityProvidersTable> = { updated_at: now };
        if (body.slug !== undefined) patch.slug = body.slug;
        if (body.name !== undefined) patch.name = body.name;
        if (body.enabled !== undefined) patch.enabled = body.enabled ? 1 : 0;
        if (body.jit !== undefined) patch.jit = body.jit ? 1 : 0;
        if (body.link_verified_email !== undefined) patch.link_verified_email = body.link_verified_email ? 1 : 0;
        if (body.default_group_id !== undefined) patch.default_group_id = body.default_group_id;
        if (body.mapping !== undefined) patch.mapping = JSON.stringify(body.mapping);
        // A secret left out keeps the stored one; the audit row says only that one was given.
        const secretGiven = body.config !== undefined && secretOf(body.config) !== undefined;
        if (body.config !== undefined) patch.config = sealConfig(body.type, body.config, this.d.box, before.config);
        await this.d.repo.update(id, patch, trx);
        const after = await this.read(id, trx);
        const changes = diff(providerSnapshot(before), providerSnapshot(after));
        return {
          result: toIdentityProvider(after),
          audit: {
            action: 'identity_provider.update',
            targetType: TARGET,
            targetId: id,
            before: changes.before,
            after: secretGiven ? { ...changes.after, credential_replaced: true } : changes.after,
          },
        };
      }),
    );
  }

  /** Deletes the provider; the identities linked through it go with it, the accounts stay. */
  async remove(ctx: AdminContext, id: number): Promise<{ id: number }> {
    authorize(ctx.actor, 'identity.manage');
    return this.d.tx.run(ctx, async (trx) => {
      const before = await this.read(id, trx);
      await this.d.repo.remove(id, trx);
      return {
        result: { id },
        audit: {
          action: 'identity_provider.delete',
          targetType: TARGET,
          targetId: id,
          before: providerSnapshot(before),
        },
      };
    });
  }

  /** Runs the type's connection test with the stored configuration, outside any transaction. */
  async test(actor: Actor, id: number, lang: Language): Promise<IdentityProviderTestResult> {
    authorize(actor, 'identity.manage');
    const row = await this.d.repo.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    return this.d.testers.test(toProviderRecord(row, this.d.box), lang);
  }

  /** What the sign-in page offers: enabled providers only, nothing of their configuration. */
  async signInProviders(): Promise<SignInProvider[]> {
    return this.d.repo.listEnabled();
  }

  /** A provider by slug for the sign-in code, secret opened; disabled ones too (the caller refuses them). */
  async bySlug(slug: string): Promise<ProviderRecord | undefined> {
    const row = await this.d.repo.findBySlug(slug);
    return row ? toProviderRecord(row, this.d.box) : undefined;
  }

  async byId(id: number): Promise<ProviderRecord | undefined> {
    const row = await this.d.repo.findById(id);
    return row ? toProviderRecord(row, this.d.box) : undefined;
  }

  private async read(id: number, trx: Db) {
    const row = await this.d.repo.findById(id, trx);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** The default group and every mapped group must exist. */
  private async checkGroups(body: CreateIdentityProviderBody | UpdateIdentityProviderBody, trx: Db) {
    const ids = [
      ...(body.default_group_id ? [body.default_group_id] : []),
      ...(body.mapping?.group_map.map((g) => g.group_id) ?? []),
    ];
    for (const groupId of new Set(ids)) {
      if (!isRowId(groupId) || !(await this.d.groups.findById(groupId, trx))) {
        throw new InputError(['validation.group.notFound']);
      }
    }
  }

  private async slugConflicts<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT_PROVIDER_SLUG');
      throw err;
    }
  }
}

/** The secret a config body carries: undefined when left out (kept), null or '' to remove it. */
function secretOf(config: object): unknown {
  const c = config as { client_secret?: unknown; bind_password?: unknown };
  return 'client_secret' in c ? c.client_secret : c.bind_password;
}

/** SAML metadata that cannot be used (malformed, a DOCTYPE, no signing certificate) is refused when saved, not at the first sign-in. */
function checkSamlMetadata(body: CreateIdentityProviderBody | UpdateIdentityProviderBody): void {
  if (body.type === 'saml' && body.config) parseIdpMetadata(body.config.idp_metadata_xml);
}
