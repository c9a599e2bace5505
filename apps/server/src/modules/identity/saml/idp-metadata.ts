import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { AppError } from '../../../lib/http/errors.js';

const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const SAML2_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** Pasted metadata is a few kilobytes; anything far larger is not metadata worth parsing. */
const MAX_METADATA_CHARS = 512 * 1024;

export interface IdpMetadata {
  entityId: string;
  /** Where the browser is sent with the AuthnRequest. */
  ssoUrl: string;
  ssoBinding: typeof BINDING_REDIRECT | typeof BINDING_POST;
  /** PEM certificates whose keys may sign assertions (several while the IdP rolls its key over). */
  signingCerts: string[];
  /** Latest expiry among the signing certificates, for the administrator's test. */
  certsValidUntil: Date;
}

const invalid = (detail: string) => new AppError('SAML_METADATA_INVALID', { detail });

/**
 * Reads the metadata an administrator pasted from their identity provider. A DOCTYPE is
 * refused outright, before parsing: metadata never needs one, and entity declarations are
 * how XML external-entity and entity-expansion attacks arrive.
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  if (xml.length > MAX_METADATA_CHARS) throw invalid('too large');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new AppError('SAML_METADATA_UNSAFE');
  const root = parseStrict(xml).documentElement;
  if (!root) throw invalid('empty document');
  const entity = findIdpEntity(root);
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw invalid('EntityDescriptor without entityID');
  const idp = childElements(entity, METADATA_NS, 'IDPSSODescriptor').find(supportsSaml2);
  if (!idp) throw invalid('no IDPSSODescriptor for SAML 2.0');
  const { ssoUrl, ssoBinding } = singleSignOnService(idp);
  const certs = signingCertificates(idp);
  if (certs.length === 0) throw new AppError('SAML_METADATA_NO_CERT');
  return {
    entityId,
    ssoUrl,
    ssoBinding,
    signingCerts: certs.map((cert) => cert.toString()),
    certsValidUntil: new Date(Math.max(...certs.map((cert) => new Date(cert.validTo).getTime()))),
  };
}

function parseStrict(xml: string): Document {
  const problems: string[] = [];
  const parser = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => problems.push(message),
      fatalError: (message: string) => problems.push(message),
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(xml, 'application/xml');
  } catch {
    throw invalid('not well-formed XML');
  }
  if (problems.length > 0 || !doc.documentElement) throw invalid('not well-formed XML');
  // The text check above catches the usual spellings; the parsed tree is the authority.
  if (doc.doctype) throw new AppError('SAML_METADATA_UNSAFE');
  return doc;
}

/** Either the EntityDescriptor itself or the first one inside an EntitiesDescriptor that describes an IdP. */
function findIdpEntity(root: Element): Element {
  if (root.namespaceURI === METADATA_NS && root.localName === 'EntityDescriptor') return root;
  if (root.namespaceURI === METADATA_NS && root.localName === 'EntitiesDescriptor') {
    const found = childElements(root, METADATA_NS, 'EntityDescriptor').find(
      (entity) => childElements(entity, METADATA_NS, 'IDPSSODescriptor').length > 0,
    );
    if (found) return found;
  }
  throw invalid('no EntityDescriptor');
}

function supportsSaml2(idp: Element): boolean {
  return (idp.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML2_PROTOCOL);
}

/** HTTP-Redirect when offered (a plain 302 from `start`), else HTTP-POST. */
function singleSignOnService(idp: Element): Pick<IdpMetadata, 'ssoUrl' | 'ssoBinding'> {
  const services = childElements(idp, METADATA_NS, 'SingleSignOnService');
  for (const binding of [BINDING_REDIRECT, BINDING_POST] as const) {
    const service = services.find((s) => s.getAttribute('Binding') === binding);
    const location = service?.getAttribute('Location')?.trim();
    if (!location) continue;
    if (!isWebAddress(location)) throw invalid('SingleSignOnService Location is not an http(s) address');
    return { ssoUrl: location, ssoBinding: binding };
  }
  throw invalid('no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding');
}

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Certificates of KeyDescriptors for signing (`use="signing"` or no `use`, which means both). */
function signingCertificates(idp: Element): X509Certificate[] {
  const certs: X509Certificate[] = [];
  for (const descriptor of childElements(idp, METADATA_NS, 'KeyDescriptor')) {
    const use = descriptor.getAttribute('use');
    if (use && use !== 'signing') continue;
    const nodes = descriptor.getElementsByTagNameNS(DSIG_NS, 'X509Certificate');
    for (let i = 0; i < nodes.length; i++) {
      const body = (nodes.item(i)?.textContent ?? '').replace(/\s+/g, '');
      if (!body) continue;
      try {
        certs.push(new X509Certificate(`-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`));
      } catch {
        throw invalid('an X509Certificate is not a readable certificate');
      }
    }
  }
  return certs;
}

function childElements(parent: Element, ns: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (element.namespaceURI === ns && element.localName === localName) found.push(element);
  }
  return found;
}
