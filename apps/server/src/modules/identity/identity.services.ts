import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { SecretBox } from '../../lib/auth/secret-box.js';
import { AppError } from '../../lib/http/errors.js';
import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AdminTransactions } from '../audit/admin-tx.js';
import type { AdminServices } from '../admin/admin.services.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import { ExternalSignInService, type SessionStarter } from './external-sign-in.service.js';
import { IdentityProvidersRepo } from './identity-providers.repo.js';
import { IdentityProvidersService } from './identity-providers.service.js';
import { ProviderTesters } from './provider-testers.js';
import { SsoExchangeService } from './sso-exchange.service.js';
import { SsoPreviewService } from './sso-preview.service.js';
import { SsoStates } from './sso-states.js';
import { SsoTicketsRepo } from './sso-tickets.repo.js';
import { UserIdentitiesRepo } from './user-identities.repo.js';
import { OidcConfigurations } from './oidc/oidc-discovery.js';
import { OidcSignIn } from './oidc/oidc-sign-in.js';
import { SamlSignInService } from './saml/saml-sign-in.service.js';
import { samlTester } from './saml/saml-tester.js';

/** The change event every instance hears when a provider is created, changed or deleted. */
export const PROVIDERS_CHANGED = 'identity-providers';

export interface IdentityDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  groups: GroupsRepo;
  settings: SettingsService;
  admin: Pick<AdminServices, 'audit' | 'idempotency'>;
  sessions: SessionStarter;
  changes: ChangeBus;
  clock: Clock;
  /** The application secret: provider secrets are sealed with a SecretBox derived from it. */
  secret: string;
  onPoolChanged?: (groupId: number) => void;
}

/** Wires single sign-on's pieces; the protocol modules (OIDC, SAML, LDAP) build on what this returns. */
export function createIdentityServices(d: IdentityDeps) {
  const box = new SecretBox(d.secret);
  const providersRepo = new IdentityProvidersRepo(d.db);
  const tickets = new SsoTicketsRepo(d.db);
  const testers = new ProviderTesters();
  const tx = new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock, () =>
    d.changes.publish(PROVIDERS_CHANGED),
  );
  const providers = new IdentityProvidersService({ repo: providersRepo, groups: d.groups, box, tx, testers });
  const signIn = new ExternalSignInService({
    db: d.db,
    users: d.users,
    groups: d.groups,
    identities: new UserIdentitiesRepo(d.db),
    settings: d.settings,
    sessions: d.sessions,
    clock: d.clock,
    onPoolChanged: d.onPoolChanged,
    audit: d.admin.audit,
  });
  const exchange = new SsoExchangeService(tickets, d.users, providersRepo, d.sessions, d.clock);
  const states = new SsoStates(tickets, d.clock);
  const previews = new SsoPreviewService({
    providers,
    signIn,
    tickets,
    groups: d.groups,
    // A preview changes no provider: no change event for the other instances.
    tx: new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock),
    clock: d.clock,
  });
  // Every instance drops its discovered OIDC configurations when any instance changes a provider.
  const oidcConfigurations = new OidcConfigurations();
  d.changes.subscribe(PROVIDERS_CHANGED, () => oidcConfigurations.clear());
  const oidc = new OidcSignIn({ providers, configurations: oidcConfigurations, states, signIn, exchange, previews });
  testers.register('oidc', (provider, lang) => oidc.test(provider, lang));
  previews.registerBrowserFlow('oidc', async (provider, adminId, base) => {
    if (provider.type !== 'oidc') throw new AppError('NOT_FOUND');
    return { url: (await oidc.startPreview(provider, adminId, base)).href, form: null };
  });
  const saml = new SamlSignInService({
    providers,
    states,
    signIn,
    exchange,
    replayGuard: {
      firstUse: (providerId, assertionId, expiresAt) =>
        tickets.claimAssertion(providerId, assertionId, expiresAt.toISOString()),
    },
    previews,
  });
  testers.register('saml', samlTester);
  previews.registerBrowserFlow('saml', async (provider, adminId, base) => {
    if (provider.type !== 'saml') throw new AppError('NOT_FOUND');
    const start = await saml.startPreview(provider, adminId, base);
    return start.kind === 'redirect'
      ? { url: start.url, form: null }
      : { url: null, form: { action: start.action, fields: start.fields } };
  });
  return {
    providers,
    testers,
    signIn,
    exchange,
    states,
    previews,
    oidc,
    saml,
    tickets,
    /** Calls `listener` whenever any instance changed a provider (drop what is cached about it). */
    onProvidersChanged: (listener: () => void) => d.changes.subscribe(PROVIDERS_CHANGED, () => listener()),
  };
}
export type IdentityServices = ReturnType<typeof createIdentityServices>;
