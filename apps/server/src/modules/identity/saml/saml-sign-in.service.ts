import { AppError } from '../../../lib/http/errors.js';
import type { ExternalSignInService } from '../external-sign-in.service.js';
import type { ProviderRecord } from '../provider-record.js';
import type { BrowserSignInEnd } from '../sso-browser.js';
import type { SsoExchangeService } from '../sso-exchange.service.js';
import type { SsoPreviewService } from '../sso-preview.service.js';
import type { SsoStates } from '../sso-states.js';
import type { AssertionReplayGuard } from './assertion-replay-guard.js';
import { parseIdpMetadata } from './idp-metadata.js';
import { newSamlRequestId, type SamlLoginStart, SamlServiceProvider } from './saml-sp.js';

type SamlProvider = Extract<ProviderRecord, { type: 'saml' }>;

export interface SamlSignInDeps {
  providers: { bySlug(slug: string): Promise<ProviderRecord | undefined> };
  states: Pick<SsoStates, 'begin' | 'take'>;
  signIn: Pick<ExternalSignInService, 'resolveAccount'>;
  exchange: Pick<SsoExchangeService, 'issue'>;
  replayGuard: AssertionReplayGuard;
  previews: Pick<SsoPreviewService, 'store'>;
}

/** This site's addresses for one SAML provider, from the public address (`PUBLIC_URL` or the request's host). */
export const samlAcsUrl = (publicBase: string, slug: string) =>
  `${publicBase}/api/auth/sso/${encodeURIComponent(slug)}/acs`;

/**
 * The SAML sign-in: `start` sends the browser to the IdP with an AuthnRequest, the ACS
 * checks what the IdP posts back and signs the person in through the shared account rules.
 * The SP is built from the stored provider on every request: parsing the metadata costs
 * little, and a changed provider applies at once on every instance.
 */
export class SamlSignInService {
  constructor(private readonly d: SamlSignInDeps) {}

  /** The AuthnRequest; the flow's state (its ID, where to land) is kept server-side for ten minutes. */
  async start(
    slug: string,
    redirect: string | undefined,
    publicBase: string,
    binding?: string,
  ): Promise<SamlLoginStart> {
    const provider = await this.provider(slug);
    if (!provider.enabled) throw new AppError('SSO_PROVIDER_DISABLED');
    return this.login(provider, redirect ?? '/', publicBase, null, binding);
  }

  /** The AuthnRequest of an administrator's test sign-in (a disabled provider too: it is tested first). */
  async startPreview(provider: SamlProvider, adminId: number, publicBase: string): Promise<SamlLoginStart> {
    return this.login(provider, '/admin/identity', publicBase, adminId);
  }

  private async login(
    provider: SamlProvider,
    redirect: string,
    publicBase: string,
    previewFor: number | null,
    binding?: string,
  ): Promise<SamlLoginStart> {
    const requestId = newSamlRequestId();
    // The AuthnRequest ID rides in the state's nonce: the value the answer must echo.
    const { state } = await this.d.states.begin(
      { provider_id: provider.id, nonce: requestId, code_verifier: '', redirect, preview_for: previewFor },
      binding,
    );
    return this.serviceProvider(provider, publicBase).startLogin(state, requestId);
  }

  /**
   * Checks the posted Response against the flow its RelayState names and answers the
   * one-time code for the exchange and where to land. The state is spent first, so a
   * Response can be tried once.
   */
  async acs(
    slug: string,
    form: { SAMLResponse?: string; RelayState?: string },
    publicBase: string,
  ): Promise<BrowserSignInEnd> {
    const provider = await this.provider(slug);
    const flow = await this.d.states.take(form.RelayState, provider.id);
    if (!provider.enabled && flow.preview_for === null) throw new AppError('SSO_PROVIDER_DISABLED');
    if (!form.SAMLResponse) throw new AppError('SAML_RESPONSE_INVALID');
    const { profile } = await this.serviceProvider(provider, publicBase).signIn(form.SAMLResponse, flow.nonce);
    // An administrator's test sign-in: what was sent and what would happen, nobody signed in.
    if (flow.preview_for !== null) {
      const code = await this.d.previews.store(flow.preview_for, provider, profile);
      return { preview: true, code, providerId: provider.id };
    }
    const user = await this.d.signIn.resolveAccount(provider, profile);
    return {
      preview: false,
      code: await this.d.exchange.issue(user.id, provider.id, flow.binding_hash),
      redirect: flow.redirect,
    };
  }

  /** The SP metadata, also for a provider not enabled yet: it is registered at the IdP first. */
  async metadata(slug: string, publicBase: string): Promise<string> {
    return this.serviceProvider(await this.provider(slug), publicBase).metadataXml();
  }

  private async provider(slug: string): Promise<SamlProvider> {
    const provider = await this.d.providers.bySlug(slug);
    if (provider?.type !== 'saml') throw new AppError('NOT_FOUND');
    return provider;
  }

  private serviceProvider(provider: SamlProvider, publicBase: string): SamlServiceProvider {
    return new SamlServiceProvider(
      {
        providerId: provider.id,
        idp: parseIdpMetadata(provider.config.idp_metadata_xml),
        spEntityId: provider.config.sp_entity_id,
        acsUrl: samlAcsUrl(publicBase, provider.slug),
        mapping: provider.mapping,
      },
      this.d.replayGuard,
    );
  }
}
