import * as client from 'openid-client';
import type { OidcSettings, ProviderRecord } from '../provider-record.js';

type OidcProvider = Extract<ProviderRecord, { type: 'oidc' }>;

/** Longest wait for the provider's discovery document and, after it, each call to the provider. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/**
 * Whether an issuer may be reached over plain http: only on this machine's loopback
 * (127.0.0.1, localhost, ::1), for a provider running beside the server in development and
 * tests. Anywhere else the ID token and the client secret would cross the network in clear,
 * so openid-client's https-only rule stands.
 */
export function isLoopbackHttp(issuer: URL): boolean {
  if (issuer.protocol !== 'http:') return false;
  const host = issuer.hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * How the client proves itself at the token endpoint: with a secret, HTTP Basic unless the
 * provider supports only the form post; without one (a public client) PKCE alone.
 */
function clientAuthFor(settings: OidcSettings, supported: string[] | undefined): client.ClientAuth {
  if (!settings.client_secret) return client.None();
  if (supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')) {
    return client.ClientSecretPost(settings.client_secret);
  }
  return client.ClientSecretBasic(settings.client_secret);
}

/** Reads `{issuer}/.well-known/openid-configuration` and answers the client's configuration. */
export async function discover(settings: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer);
  const options: client.DiscoveryRequestOptions = {
    timeout: PROVIDER_TIMEOUT_SECONDS,
    ...(isLoopbackHttp(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
  };
  // Discovered once without authentication to learn the methods the token endpoint takes.
  const probe = await client.discovery(issuer, settings.client_id, undefined, client.None(), options);
  const methods = probe.serverMetadata().token_endpoint_auth_methods_supported;
  const config = new client.Configuration(
    probe.serverMetadata(),
    settings.client_id,
    undefined,
    clientAuthFor(settings, methods),
  );
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (isLoopbackHttp(issuer)) client.allowInsecureRequests(config);
  // The ID token's signature is checked against the provider's keys (JWKS), not only trusted
  // because it came over TLS from the token endpoint.
  client.enableNonRepudiationChecks(config);
  return config;
}

/**
 * Each OIDC provider's discovered configuration, fetched on first use and kept until any
 * instance changes a provider (the change bus empties it) or a fetch fails (not kept).
 */
export class OidcConfigurations {
  private readonly cache = new Map<number, { key: string; config: Promise<client.Configuration> }>();

  constructor(private readonly load: (settings: OidcSettings) => Promise<client.Configuration> = discover) {}

  get(provider: OidcProvider): Promise<client.Configuration> {
    // The key guards against a change whose event has not arrived yet.
    const key = JSON.stringify(provider.config);
    const cached = this.cache.get(provider.id);
    if (cached && cached.key === key) return cached.config;
    const config = this.load(provider.config);
    this.cache.set(provider.id, { key, config });
    config.catch(() => {
      if (this.cache.get(provider.id)?.config === config) this.cache.delete(provider.id);
    });
    return config;
  }

  clear(): void {
    this.cache.clear();
  }
}
