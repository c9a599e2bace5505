import type { IdentityMapping } from '@aiplatform/contracts';
import type { UserRow } from '../../../db/types.js';
import { AppError } from '../../../lib/http/errors.js';
import type { DirectorySignIn } from '../../auth/directory-sign-in.js';
import type { ExternalSignInService } from '../external-sign-in.service.js';
import type { ProviderRecord } from '../provider-record.js';
import type { ProviderTesters } from '../provider-testers.js';
import type { SsoPreviewService } from '../sso-preview.service.js';
import { LdapDirectory, type LdapDirectoryOptions } from './ldap-directory.js';
import { LDAP_DEFAULT_MAPPING, type LdapAttributeMapping } from './ldap-profile.js';

type LdapProvider = Extract<ProviderRecord, { type: 'ldap' }>;

/** The claim names a new provider's mapping starts with (OpenID Connect's), which no directory uses. */
const OIDC_NAMES: LdapAttributeMapping = {
  email_claim: 'email',
  username_claim: 'preferred_username',
  name_claim: 'name',
};

/**
 * The attributes to read from the person's entry: the administrator's choice, or inetOrgPerson's
 * `mail`, `uid` and `cn` where the mapping still holds the OpenID Connect names it starts with.
 */
export function ldapAttributes(mapping: IdentityMapping): LdapAttributeMapping {
  const pick = (key: keyof LdapAttributeMapping) => {
    const chosen = mapping[key].trim();
    return chosen === '' || chosen === OIDC_NAMES[key] ? LDAP_DEFAULT_MAPPING[key] : chosen;
  };
  return { email_claim: pick('email_claim'), username_claim: pick('username_claim'), name_claim: pick('name_claim') };
}

const directoryOf = (provider: LdapProvider, options?: LdapDirectoryOptions) =>
  new LdapDirectory(provider.config, ldapAttributes(provider.mapping), options);

export interface LdapSignInDeps {
  providers: { bySlug(slug: string): Promise<ProviderRecord | undefined> };
  signIn: Pick<ExternalSignInService, 'resolveAccount'>;
  options?: LdapDirectoryOptions;
}

/** Password sign-in through an LDAP provider: the directory proves the password, the core finds or makes the account. */
export class LdapSignIn implements DirectorySignIn {
  constructor(private readonly d: LdapSignInDeps) {}

  async verify(providerSlug: string, account: string, password: string): Promise<UserRow> {
    const provider = await this.d.providers.bySlug(providerSlug);
    if (provider?.type !== 'ldap' || !provider.enabled) throw new AppError('SSO_PROVIDER_DISABLED');
    const profile = await directoryOf(provider, this.d.options).authenticate(account, password);
    return this.d.signIn.resolveAccount(provider, profile);
  }
}

/** The administrator's connection test of LDAP providers: the service bind and a search of the people. */
export function registerLdapTester(testers: ProviderTesters, options?: LdapDirectoryOptions): void {
  testers.register('ldap', (provider, lang) => directoryOf(provider, options).test(lang));
}

/** The administrator's test sign-in through an LDAP provider: the person's login and password, checked by the directory. */
export function registerLdapPreview(
  previews: Pick<SsoPreviewService, 'registerDirectory'>,
  options?: LdapDirectoryOptions,
) {
  previews.registerDirectory('ldap', (provider, login, password) => {
    if (provider.type !== 'ldap') throw new AppError('NOT_FOUND');
    return directoryOf(provider, options).authenticate(login, password);
  });
}
