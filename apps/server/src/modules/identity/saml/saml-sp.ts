import { randomBytes } from 'node:crypto';
import { type CacheProvider, type Profile, SAML, type SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import { AppError } from '../../../lib/http/errors.js';
import type { ExternalProfile } from '../external-profile.js';
import { BINDING_POST, type IdpMetadata } from './idp-metadata.js';
import type { AssertionReplayGuard } from './assertion-replay-guard.js';
import { profileFromAttributes, type SamlAttributeMapping } from './saml-attributes.js';

/** Clocks of the IdP and of this server may differ by this much. */
const CLOCK_SKEW_MS = 60_000;
/** An AuthnRequest must be answered within this time (the sign-in flow's own lifetime). */
export const SAML_REQUEST_LIFETIME_MS = 10 * 60_000;

export interface SamlServiceProviderSettings {
  providerId: number;
  idp: IdpMetadata;
  /** Our entity ID: the audience every assertion must name. */
  spEntityId: string;
  /** `<public address>/api/auth/sso/<slug>/acs` */
  acsUrl: string;
  mapping: SamlAttributeMapping;
}

/** Where `start` sends the browser: a 302 address, or (IdP offering only HTTP-POST) a form posted to `action`. */
export type SamlLoginStart =
  { kind: 'redirect'; url: string } | { kind: 'form'; action: string; fields: Record<string, string> };

/** A fresh AuthnRequest ID (an XML ID: it may not start with a digit). */
export const newSamlRequestId = () => `_${randomBytes(20).toString('hex')}`;

export interface SamlSignIn {
  profile: ExternalProfile;
  assertionId: string;
}

/**
 * One SAML 2.0 service provider (this site) facing one identity provider.
 *
 * Only SP-initiated sign-in is accepted: every Response must answer (InResponseTo) the
 * AuthnRequest that `start` issued for this same flow, whose ID the caller keeps in the
 * flow's server-side state. An unsolicited (IdP-initiated) Response is refused, because
 * nothing would tie it to a browser that asked to sign in, so a stolen or planted
 * assertion could sign someone into another person's account.
 *
 * What is required of a Response: an assertion signed by a certificate from the IdP's
 * metadata (a signed Response around an unsigned assertion is not enough), exactly one
 * assertion, our entity ID as audience, this ACS as recipient, the metadata's entity ID as
 * issuer, inside its validity window (60 s of skew), with an end of validity, a non-transient
 * NameID, and an assertion ID never accepted before (across instances, through the guard).
 */
export class SamlServiceProvider {
  constructor(
    private readonly settings: SamlServiceProviderSettings,
    private readonly replayGuard: AssertionReplayGuard,
  ) {}

  /**
   * The AuthnRequest for `start`. The caller keeps `requestId` in the flow's server-side
   * state before sending the browser off, and `relayState` brings that state back to the ACS.
   */
  async startLogin(relayState: string, requestId: string): Promise<SamlLoginStart> {
    const saml = this.saml(new NoRequestCache(), requestId);
    if (this.settings.idp.ssoBinding === BINDING_POST) {
      const message = await saml.getAuthorizeMessageAsync(relayState);
      const fields = Object.fromEntries(Object.entries(message).map(([name, value]) => [name, String(value)]));
      return { kind: 'form', action: this.settings.idp.ssoUrl, fields };
    }
    return { kind: 'redirect', url: await saml.getAuthorizeUrlAsync(relayState, undefined, {}) };
  }

  /** The SP metadata an administrator registers at the IdP. */
  metadataXml(): string {
    return this.saml(new NoRequestCache()).generateServiceProviderMetadata(null, null);
  }

  /**
   * Checks a posted `SAMLResponse` (base64) answering the AuthnRequest `expectedRequestId`
   * and answers who signed in. Every refusal is `SAML_RESPONSE_INVALID` (the cause kept for
   * the log) except a replayed assertion, `SAML_ASSERTION_REPLAYED`.
   */
  async signIn(samlResponse: string, expectedRequestId: string): Promise<SamlSignIn> {
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml(new ExpectOneRequestId(expectedRequestId)).validatePostResponseAsync({
        SAMLResponse: samlResponse,
      }));
    } catch (err) {
      throw new AppError('SAML_RESPONSE_INVALID', {}, undefined, err);
    }
    if (!profile) throw new AppError('SAML_RESPONSE_INVALID', {}, undefined, new Error('no assertion'));
    const facts = this.checkAssertion(profile);
    const fresh = await this.replayGuard.firstUse(this.settings.providerId, facts.assertionId, facts.expiresAt);
    if (!fresh) throw new AppError('SAML_ASSERTION_REPLAYED');
    return { profile: profileFromAttributes(profile, this.settings.mapping), assertionId: facts.assertionId };
  }

  /** What node-saml leaves to its caller, read from the assertion it verified. */
  private checkAssertion(profile: Profile): { assertionId: string; expiresAt: Date } {
    const refuse = (why: string) => new AppError('SAML_RESPONSE_INVALID', {}, undefined, new Error(why));
    const assertion = (profile.getAssertion?.() as { Assertion?: AssertionJs } | undefined)?.Assertion;
    const assertionId = assertion?.$?.ID;
    if (!assertion || !assertionId) throw refuse('assertion without ID');
    if (profile.issuer !== this.settings.idp.entityId) throw refuse(`issuer ${String(profile.issuer)}`);
    if (!profile.nameID) throw refuse('no NameID');
    // A transient NameID changes at every sign-in: it cannot key an account.
    if (profile.nameIDFormat === 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient')
      throw refuse('transient NameID');
    const recipients = (assertion.Subject?.[0]?.SubjectConfirmation ?? [])
      .map((confirmation) => confirmation.SubjectConfirmationData?.[0]?.$?.Recipient)
      .filter((recipient): recipient is string => typeof recipient === 'string');
    if (recipients.length > 0 && !recipients.includes(this.settings.acsUrl)) throw refuse('recipient is not our ACS');
    // Without an end of validity the assertion would have to be remembered forever.
    const notOnOrAfter = assertion.Conditions?.[0]?.$?.NotOnOrAfter;
    const expiresAt = notOnOrAfter ? new Date(notOnOrAfter) : undefined;
    if (!expiresAt || Number.isNaN(expiresAt.getTime())) throw refuse('no Conditions NotOnOrAfter');
    return { assertionId, expiresAt: new Date(expiresAt.getTime() + CLOCK_SKEW_MS) };
  }

  private saml(requestIds: CacheProvider, requestId?: string): SAML {
    const { idp, spEntityId, acsUrl } = this.settings;
    const config: SamlConfig = {
      issuer: spEntityId,
      audience: spEntityId,
      callbackUrl: acsUrl,
      entryPoint: idp.ssoUrl,
      idpCert: idp.signingCerts,
      wantAssertionsSigned: true,
      // The assertion's signature is what counts; many IdPs do not sign the envelope.
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SAML_REQUEST_LIFETIME_MS,
      cacheProvider: requestIds,
      // The HTTP-POST binding carries the request base64-encoded only; deflating is the redirect binding's.
      skipRequestCompression: idp.ssoBinding === BINDING_POST,
      ...(requestId === undefined ? {} : { generateUniqueId: () => requestId }),
      // Let the IdP use the NameID format configured for this application there.
      identifierFormat: null,
      // Asking for password authentication would fail people who sign in with MFA or passkeys.
      disableRequestedAuthnContext: true,
    };
    return new SAML(config);
  }
}

interface AssertionJs {
  $?: { ID?: string };
  Subject?: { SubjectConfirmation?: { SubjectConfirmationData?: { $?: { Recipient?: string } }[] }[] }[];
  Conditions?: { $?: { NotOnOrAfter?: string } }[];
}

/**
 * node-saml keeps the IDs of its AuthnRequests in a cache of its own; here the flow's
 * server-side state holds that ID instead, so node-saml gets a stand-in for one call: this
 * one for building requests and metadata (nothing to remember)…
 */
class NoRequestCache implements CacheProvider {
  saveAsync() {
    return Promise.resolve(null);
  }
  getAsync() {
    return Promise.resolve(null);
  }
  removeAsync() {
    return Promise.resolve(null);
  }
}

/** …and this one knows only the request this flow issued, so a Response to any other request is refused. */
class ExpectOneRequestId implements CacheProvider {
  constructor(private readonly expected: string) {}
  saveAsync() {
    return Promise.resolve(null);
  }
  getAsync(key: string) {
    // node-saml ages the request from this instant; the flow state has its own expiry already.
    return Promise.resolve(key === this.expected ? new Date().toISOString() : null);
  }
  removeAsync() {
    return Promise.resolve(null);
  }
}
