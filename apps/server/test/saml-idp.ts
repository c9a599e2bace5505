import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML 2.0 identity provider for tests: its own RSA key and self-signed certificate,
 * its metadata, and Responses whose assertion it signs the way real IdPs do (enveloped
 * signature, exclusive canonicalisation, RSA-SHA256), base64-encoded like the browser's
 * form post to the ACS.
 */

const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const ASSERTION_XPATH = "//*[local-name(.)='Assertion']";
const RESPONSE_XPATH = "/*[local-name(.)='Response']";

export interface SigningKey {
  privateKeyPem: string;
  certPem: string;
}

/** A fresh key and a self-signed certificate for it (openssl, as installed on the machine). */
export function makeSigningKey(commonName = 'test-idp'): SigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  try {
    writeFileSync(join(dir, 'key.pem'), privateKeyPem, { mode: 0o600 });
    execFileSync('openssl', [
      'req', '-x509', '-new', '-key', join(dir, 'key.pem'), '-subj', `/CN=${commonName}`,
      '-days', '2', '-sha256', '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    return { privateKeyPem, certPem: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function certBody(certPem: string): string {
  return certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

export interface AssertionOptions {
  /** The AuthnRequest this answers (Response and SubjectConfirmationData InResponseTo). */
  inResponseTo: string;
  audience: string;
  recipient: string;
  nameId?: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
  /** Validity window of the Conditions and the subject confirmation. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  /** Unsigned when false. */
  sign?: boolean;
  /** Signs with this key instead of the IdP's own. */
  signWith?: SigningKey;
  issuer?: string;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export class TestSamlIdp {
  readonly entityId = 'https://idp.test.invalid/metadata';
  readonly ssoUrl = 'https://idp.test.invalid/sso';
  readonly key: SigningKey;

  constructor(key: SigningKey = makeSigningKey()) {
    this.key = key;
  }

  metadataXml(opts: { binding?: 'redirect' | 'post'; withCert?: boolean } = {}): string {
    const binding =
      opts.binding === 'post'
        ? 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'
        : 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
    const keyDescriptor =
      opts.withCert === false
        ? ''
        : `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody(this.key.certPem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
    return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${this.entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keyDescriptor}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:SingleSignOnService Binding="${binding}" Location="${this.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** The assertion alone, signed unless `sign: false`. */
  assertionXml(opts: AssertionOptions): string {
    const now = new Date();
    const notBefore = (opts.notBefore ?? new Date(now.getTime() - 5_000)).toISOString();
    const notOnOrAfter = (opts.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
    const id = opts.assertionId ?? `_a${randomUUID().replace(/-/g, '')}`;
    const attributes = Object.entries(opts.attributes ?? {})
      .map(([name, value]) => {
        const values = (Array.isArray(value) ? value : [value])
          .map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`)
          .join('');
        return `<saml:Attribute Name="${escapeXml(name)}">${values}</saml:Attribute>`;
      })
      .join('');
    const xml =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}">` +
      `<saml:Issuer>${escapeXml(opts.issuer ?? this.entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${opts.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'}">${escapeXml(opts.nameId ?? 'user-1')}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${opts.inResponseTo}" NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(opts.recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(opts.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`;
    return opts.sign === false ? xml : this.sign(xml, opts.signWith ?? this.key);
  }

  /** A Response around the given assertion XML (one or several, for wrapping attempts). */
  responseXml(inResponseTo: string, destination: string, assertions: string[]): string {
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID().replace(/-/g, '')}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${escapeXml(destination)}" InResponseTo="${inResponseTo}">` +
      `<saml:Issuer>${this.entityId}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertions.join('') +
      `</samlp:Response>`
    );
  }

  /** The usual case: one signed assertion in a Response, base64 as the form field `SAMLResponse`. */
  response(opts: AssertionOptions): string {
    return encodeResponse(this.responseXml(opts.inResponseTo, opts.recipient, [this.assertionXml(opts)]));
  }

  /** Signs the whole Response (the envelope), as some IdPs do besides or instead of the assertion. */
  signResponse(responseXml: string): string {
    return this.sign(responseXml, this.key, RESPONSE_XPATH);
  }

  private sign(xml: string, key: SigningKey, xpath = ASSERTION_XPATH): string {
    const signer = new SignedXml({
      privateKey: key.privateKeyPem,
      publicCert: key.certPem,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: EXC_C14N,
    });
    signer.addReference({
      xpath,
      transforms: [ENVELOPED, EXC_C14N],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    // The schema puts the signature right after the element's own Issuer.
    signer.computeSignature(xml, {
      location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' },
    });
    return signer.getSignedXml();
  }
}

export const encodeResponse = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
