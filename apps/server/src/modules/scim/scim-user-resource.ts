import { USER_SCHEMA } from './scim-discovery.js';
import { invalidValue } from './scim-errors.js';
import { type ScimJson, isObject } from './scim-patch.js';
import type { ScimUserRow } from './scim.repo.js';

/** What the directory may set on an account, read from a SCIM User. */
export interface ScimUserInput {
  userName: string;
  email: string;
  externalId: string | null;
  /** Absent when not sent: a new account is active, an existing one keeps its status. */
  active: boolean | undefined;
  /** `name` and `displayName`, kept as sent and returned unchanged. */
  profile: { name?: ScimJson; displayName?: string };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_TEXT = 255;

/** Entra ID sends booleans as the strings "True" and "False". */
function booleanOf(v: unknown): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw invalidValue('active must be true or false');
}

const field = (body: ScimJson, name: string): unknown =>
  body[Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name];

function text(v: unknown, name: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > MAX_TEXT)
    throw invalidValue(`${name} must be a string of at most ${MAX_TEXT} characters`);
  return v.trim();
}

/** The primary email, else the first; the userName when it is an email and no email was sent. */
function emailOf(emails: unknown, userName: string): string {
  const list = Array.isArray(emails) ? emails.filter(isObject) : [];
  const chosen = list.find((e) => booleanOf(field(e, 'primary')) === true) ?? list[0];
  const value = chosen ? text(field(chosen, 'value'), 'emails.value') : EMAIL.test(userName) ? userName : undefined;
  if (!value || !EMAIL.test(value) || value.length > 254) throw invalidValue('A valid email is required');
  return value.toLowerCase();
}

/** Reads a SCIM User (POST, PUT, or the result of a PATCH). */
export function readUserInput(body: unknown): ScimUserInput {
  if (!isObject(body)) throw invalidValue('A User object is required');
  const userName = text(field(body, 'userName'), 'userName');
  if (!userName) throw invalidValue('userName is required');
  const name = field(body, 'name');
  const displayName = text(field(body, 'displayName'), 'displayName');
  return {
    userName,
    email: emailOf(field(body, 'emails'), userName),
    externalId: text(field(body, 'externalId'), 'externalId') ?? null,
    active: booleanOf(field(body, 'active')),
    profile: {
      ...(isObject(name) ? { name: pickName(name) } : {}),
      ...(displayName ? { displayName } : {}),
    },
  };
}

/** Only the name parts RFC 7643 defines, as strings: nothing else the client sent is stored. */
function pickName(name: ScimJson): ScimJson {
  const out: ScimJson = {};
  for (const part of ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix']) {
    const v = text(field(name, part), `name.${part}`);
    if (v !== undefined) out[part] = v;
  }
  return out;
}

/** An account as a SCIM User. */
export function toScimUser(u: ScimUserRow, base: string): ScimJson {
  const profile = parseProfile(u.scim_profile);
  return {
    schemas: [USER_SCHEMA],
    id: String(u.id),
    ...(u.external_id ? { externalId: u.external_id } : {}),
    userName: u.scim_user_name ?? u.username,
    ...(profile.name ? { name: profile.name } : {}),
    displayName: profile.displayName ?? u.username,
    active: u.status === 'active',
    emails: [{ value: u.email, type: 'work', primary: true }],
    groups:
      u.group_id === null
        ? []
        : [{ value: String(u.group_id), display: u.group_name ?? '', $ref: `${base}/Groups/${u.group_id}` }],
    meta: {
      resourceType: 'User',
      created: u.created_at,
      lastModified: u.updated_at,
      location: `${base}/Users/${u.id}`,
    },
  };
}

function parseProfile(raw: string | null): ScimUserInput['profile'] {
  if (!raw) return {};
  try {
    const p = JSON.parse(raw) as unknown;
    return isObject(p) ? p : {};
  } catch {
    return {};
  }
}
