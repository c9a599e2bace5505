import type { IdentityProviderTestResult } from '@aiplatform/contracts';
import * as client from 'openid-client';
import { AppError } from '../../../lib/http/errors.js';
import type { Language } from '@aiplatform/contracts';
import { translate } from '../../../lib/runtime/i18n.js';
import type { ExternalSignInService } from '../external-sign-in.service.js';
import type { IdentityProvidersService } from '../identity-providers.service.js';
import type { ProviderRecord } from '../provider-record.js';
import type { BrowserSignInEnd } from '../sso-browser.js';
import type { SsoExchangeService } from '../sso-exchange.service.js';
import type { SsoPreviewService } from '../sso-preview.service.js';
import type { SsoStates } from '../sso-states.js';
import type { OidcConfigurations } from './oidc-discovery.js';
import { missesMappedClaims, oidcProfile } from './oidc-profile.js';

type OidcProvider = Extract<ProviderRecord, { type: 'oidc' }>;

export interface OidcSignInDeps {
  providers: IdentityProvidersService;
  configurations: OidcConfigurations;
  states: SsoStates;
  signIn: ExternalSignInService;
  exchange: SsoExchangeService;
  previews: Pick<SsoPreviewService, 'store'>;
}

/** The address the provider sends the browser back to; registered at the provider as is. */
export function oidcRedirectUri(publicBase: string, slug: string): string {
  return `${publicBase}/api/auth/sso/${encodeURIComponent(slug)}/callback`;
}

/**
 * Signing in with OpenID Connect: the authorization code flow with PKCE (S256), `state` and
 * `nonce`. openid-client checks the answer: state, the code's exchange with the verifier, and
 * the ID token's signature (the provider's JWKS), issuer, audience, expiry and nonce.
 */
export class OidcSignIn {
  constructor(private readonly d: OidcSignInDeps) {}

  /** The provider's authorization address for a new sign-in that ends on `redirect` (this site's path). */
  async start(slug: string, redirect: string | undefined, publicBase: string, binding?: string): Promise<URL> {
    const provider = await this.provider(slug);
    if (!provider.enabled) throw new AppError('SSO_PROVIDER_DISABLED');
    return this.authorizationUrl(provider, redirect ?? '/', publicBase, null, binding);
  }

  /** The authorization address of an administrator's test sign-in (a disabled provider too: it is tested first). */
  async startPreview(provider: OidcProvider, adminId: number, publicBase: string): Promise<URL> {
    return this.authorizationUrl(provider, '/admin/identity', publicBase, adminId);
  }

  private async authorizationUrl(
    provider: OidcProvider,
    redirect: string,
    publicBase: string,
    previewFor: number | null,
    binding?: string,
  ): Promise<URL> {
    const config = await this.configuration(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const { state } = await this.d.states.begin(
      { provider_id: provider.id, nonce, code_verifier: codeVerifier, redirect, preview_for: previewFor },
      binding,
    );
    return client.buildAuthorizationUrl(config, {
      redirect_uri: oidcRedirectUri(publicBase, provider.slug),
      scope: provider.config.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
  }

  /**
   * Finishes a sign-in from the provider's answer (the callback's query): the state is spent
   * first, whatever follows, so an answer is good once. Answers the one-time exchange code and
   * where the person wanted to land; for a test sign-in, the preview's code instead (nobody
   * is signed in).
   */
  async finish(slug: string, query: URLSearchParams, publicBase: string): Promise<BrowserSignInEnd> {
    const provider = await this.provider(slug);
    const remembered = await this.d.states.take(query.get('state') ?? undefined, provider.id);
    if (!provider.enabled && remembered.preview_for === null) throw new AppError('SSO_PROVIDER_DISABLED');
    // The provider refused or the person cancelled: nothing to exchange.
    if (query.has('error') || !query.has('code')) throw new AppError('SSO_TOKEN_INVALID');
    const config = await this.configuration(provider);
    const redirectUri = oidcRedirectUri(publicBase, provider.slug);
    const currentUrl = new URL(`${redirectUri}?${query.toString()}`);
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: remembered.code_verifier,
        expectedState: query.get('state') ?? undefined,
        expectedNonce: remembered.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new AppError('SSO_TOKEN_INVALID');
      claims = { ...idClaims };
      // Some providers put email or groups only in userinfo; the ID token's claims win.
      if (missesMappedClaims(claims, provider.mapping) && config.serverMetadata().userinfo_endpoint) {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...claims };
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('SSO_TOKEN_INVALID');
    }
    const profile = oidcProfile(claims, provider.mapping);
    if (remembered.preview_for !== null) {
      const code = await this.d.previews.store(remembered.preview_for, provider, profile);
      return { preview: true, code, providerId: provider.id };
    }
    const user = await this.d.signIn.resolveAccount(provider, profile);
    return {
      preview: false,
      code: await this.d.exchange.issue(user.id, provider.id, remembered.binding_hash),
      redirect: remembered.redirect,
    };
  }

  /** The connection test: the discovery document fetched and read. */
  async test(provider: OidcProvider, lang: Language): Promise<IdentityProviderTestResult> {
    const metadata = (await this.d.configurations.get(provider)).serverMetadata();
    return {
      ok: true,
      message: translate(lang, 'server.identity.oidc.testOk', { issuer: metadata.issuer }),
      details: {
        issuer: metadata.issuer,
        authorization_endpoint: metadata.authorization_endpoint ?? null,
        token_endpoint: metadata.token_endpoint ?? null,
        userinfo_endpoint: metadata.userinfo_endpoint ?? null,
        jwks_uri: metadata.jwks_uri ?? null,
        scopes_supported: metadata.scopes_supported ?? null,
        claims_supported: metadata.claims_supported ?? null,
      },
    };
  }

  private async provider(slug: string): Promise<OidcProvider> {
    const provider = await this.d.providers.bySlug(slug);
    if (!provider || provider.type !== 'oidc') throw new AppError('NOT_FOUND');
    return provider;
  }

  /** The provider's discovered configuration; unreachable or unreadable: SSO_TOKEN_INVALID. */
  private async configuration(provider: OidcProvider): Promise<client.Configuration> {
    try {
      return await this.d.configurations.get(provider);
    } catch {
      throw new AppError('SSO_TOKEN_INVALID');
    }
  }
}
