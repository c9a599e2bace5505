import type { Entry } from 'ldapts';
import type { ExternalProfile } from '../external-profile.js';

/** Which attributes of a directory entry hold the person's email, username and display name. */
export interface LdapAttributeMapping {
  email_claim: string;
  username_claim: string;
  name_claim: string;
}

/** The attribute names of OpenLDAP's inetOrgPerson, used where the administrator named none. */
export const LDAP_DEFAULT_MAPPING: LdapAttributeMapping = {
  email_claim: 'mail',
  username_claim: 'uid',
  name_claim: 'cn',
};

/** Binary attributes asked for as bytes: Active Directory's GUID and SID are not text. */
export const BINARY_ATTRIBUTES = ['objectGUID', 'objectSid'];

/** Operational attributes a plain `*` does not return but the profile needs. */
export const EXTRA_ATTRIBUTES = ['entryUUID', 'memberOf'];

/**
 * Attributes never copied into the claims preview: password hashes (a service account with
 * broad read rights may see them), Kerberos and Samba keys, and binary blobs.
 */
const HIDDEN_ATTRIBUTE = /pass|pwd|secret|krb|sambant|sambalm|ntlm|photo|certificate|^objectsid$/i;

const firstValue = (value: Entry[string] | undefined): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return undefined;
  const text = (Buffer.isBuffer(first) ? first.toString('utf8') : first).trim();
  return text === '' ? undefined : text;
};

const allValues = (value: Entry[string] | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) =>
    Buffer.isBuffer(v) ? v.toString('utf8') : v,
  );

/** An attribute by name, whatever case the server spelled it in (AD answers `mail`, `Mail`…). */
function attribute(entry: Entry, name: string): Entry[string] | undefined {
  if (name in entry) return entry[name];
  const lower = name.toLowerCase();
  const key = Object.keys(entry).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : entry[key];
}

/** Active Directory's objectGUID bytes as the usual GUID text (the first three fields are little-endian). */
export function guidText(bytes: Buffer): string {
  const hex = (from: number, to: number, reverse: boolean) => {
    const part = Buffer.from(bytes.subarray(from, to));
    return (reverse ? part.reverse() : part).toString('hex');
  };
  return [hex(0, 4, true), hex(4, 6, true), hex(6, 8, true), hex(8, 10, false), hex(10, 16, false)].join('-');
}

/**
 * The person's stable key at the directory. A DN changes when an entry is renamed or moved
 * to another organisational unit, which would orphan the account linked to it; the
 * directory's own identifier does not: `objectGUID` on Active Directory, `entryUUID`
 * (RFC 4530) on OpenLDAP and most others. The DN is the key only on a directory with
 * neither.
 */
function subjectOf(entry: Entry): string {
  const guid = attribute(entry, 'objectGUID');
  const guidBytes = Array.isArray(guid) ? guid[0] : guid;
  if (Buffer.isBuffer(guidBytes) && guidBytes.length === 16) return guidText(guidBytes);
  return firstValue(attribute(entry, 'entryUUID'))?.toLowerCase() ?? entry.dn;
}

/** The entry's attributes for the administrator's claims preview, secrets and binary values left out. */
function claimsOf(entry: Entry): Record<string, unknown> {
  const claims: Record<string, unknown> = { dn: entry.dn };
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn' || name === '*' || HIDDEN_ATTRIBUTE.test(name)) continue;
    if (name.toLowerCase() === 'objectguid') {
      const bytes = Array.isArray(value) ? value[0] : value;
      if (Buffer.isBuffer(bytes) && bytes.length === 16) claims[name] = guidText(bytes);
      continue;
    }
    const values = allValues(value);
    if (values.length > 0) claims[name] = values.length === 1 ? values[0] : values;
  }
  return claims;
}

/** Group DNs once each, compared as LDAP compares DNs here: without regard to case. */
function distinct(dns: string[]): string[] {
  const seen = new Set<string>();
  return dns.filter((dn) => {
    const key = dn.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The person as the rest of sign-in sees them. The email counts as verified: a directory's
 * mail attribute is written by the organisation's administrators, not typed in by the
 * person at sign-up, so it proves as much as an identity provider's verified flag. Whether
 * that is enough to link a first sign-in to an existing local account stays the
 * administrator's choice through the provider's `link_verified_email` switch.
 */
export function profileOf(entry: Entry, groupDns: string[], mapping: LdapAttributeMapping): ExternalProfile {
  const email = firstValue(attribute(entry, mapping.email_claim));
  return {
    subject: subjectOf(entry),
    email,
    emailVerified: email !== undefined,
    username: firstValue(attribute(entry, mapping.username_claim)),
    name: firstValue(attribute(entry, mapping.name_claim)),
    groups: distinct([...groupDns, ...allValues(attribute(entry, 'memberOf'))]),
    claims: claimsOf(entry),
  };
}
