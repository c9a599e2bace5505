import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/http/errors.js';
import { certBody, TestSamlIdp } from '../../../../test/saml-idp.js';
import { BINDING_POST, BINDING_REDIRECT, parseIdpMetadata } from './idp-metadata.js';

let idp: TestSamlIdp;
beforeAll(() => {
  idp = new TestSamlIdp();
});

function refusal(xml: string): string {
  try {
    parseIdpMetadata(xml);
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  throw new Error('accepted');
}

describe('IdP metadata', () => {
  it('reads the entity ID, the sign-on address and the signing certificate', () => {
    const metadata = parseIdpMetadata(idp.metadataXml());
    expect(metadata.entityId).toBe(idp.entityId);
    expect(metadata.ssoUrl).toBe(idp.ssoUrl);
    expect(metadata.ssoBinding).toBe(BINDING_REDIRECT);
    expect(metadata.signingCerts).toHaveLength(1);
    expect(certBody(metadata.signingCerts[0] ?? '')).toBe(certBody(idp.key.certPem));
    expect(metadata.certsValidUntil.getTime()).toBeGreaterThan(Date.now());
  });

  it('takes the HTTP-POST sign-on address when the IdP offers no redirect', () => {
    expect(parseIdpMetadata(idp.metadataXml({ binding: 'post' })).ssoBinding).toBe(BINDING_POST);
  });

  it('finds the IdP inside an EntitiesDescriptor', () => {
    const inner = idp.metadataXml().replace(/^<\?xml[^>]*>\s*/, '');
    const wrapped = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${inner}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(wrapped).entityId).toBe(idp.entityId);
  });

  it('refuses a DOCTYPE and entity declarations, however they are spelled', () => {
    const body = idp.metadataXml().replace(/^<\?xml[^>]*>\s*/, '');
    const xxe = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY x SYSTEM "file:///etc/passwd">]>${body}`;
    expect(refusal(xxe)).toBe('SAML_METADATA_UNSAFE');
    expect(refusal(`<!doctype md>${body}`)).toBe('SAML_METADATA_UNSAFE');
  });

  it('refuses malformed XML and documents that are not IdP metadata', () => {
    expect(refusal('<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"')).toBe(
      'SAML_METADATA_INVALID',
    );
    expect(refusal('not xml at all')).toBe('SAML_METADATA_INVALID');
    expect(refusal('<html><body>login</body></html>')).toBe('SAML_METADATA_INVALID');
    expect(refusal(idp.metadataXml().replace(/<md:SingleSignOnService[^>]*>/, ''))).toBe('SAML_METADATA_INVALID');
  });

  it('refuses metadata without a signing certificate, or with an unreadable one', () => {
    expect(refusal(idp.metadataXml({ withCert: false }))).toBe('SAML_METADATA_NO_CERT');
    const broken = idp.metadataXml().replace(/<ds:X509Certificate>[^<]+/, '<ds:X509Certificate>AAAA');
    expect(refusal(broken)).toBe('SAML_METADATA_INVALID');
  });
});
