import type { IdentityProviderTestResult, Language } from '@aiplatform/contracts';
import { translate } from '../../lib/runtime/i18n.js';
import type { ProviderRecord } from './provider-record.js';

/**
 * Reaches a provider with its stored configuration and says how that went (OIDC: discovery
 * fetched; SAML: metadata parsed; LDAP: bind done). A failure is an answer with `ok: false`
 * and the reason, never a thrown error: the administrator reads it.
 */
export type ProviderTester<T extends ProviderRecord['type'] = ProviderRecord['type']> = (
  provider: Extract<ProviderRecord, { type: T }>,
  lang: Language,
) => Promise<IdentityProviderTestResult>;

/** One connection test per protocol, registered by the module that speaks it. */
export class ProviderTesters {
  private readonly testers = new Map<ProviderRecord['type'], ProviderTester>();

  register<T extends ProviderRecord['type']>(type: T, tester: ProviderTester<T>): void {
    this.testers.set(type, tester as unknown as ProviderTester);
  }

  async test(provider: ProviderRecord, lang: Language): Promise<IdentityProviderTestResult> {
    const tester = this.testers.get(provider.type);
    if (!tester) return { ok: false, message: translate(lang, 'server.identity.noTester'), details: {} };
    try {
      return await tester(provider, lang);
    } catch (err) {
      return { ok: false, message: err instanceof Error ? err.message : String(err), details: {} };
    }
  }
}
