import { type Filter, parse } from 'scim2-parse-filter';
import { ScimError, invalidValue } from './scim-errors.js';

/** A resource as SCIM JSON, changed in place by the operations of a PATCH. */
export type ScimJson = Record<string, unknown>;

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

const invalidPath = (path: string) => new ScimError(400, `The path "${path}" is not supported`, 'invalidPath');

/**
 * Reads the body of a PATCH (RFC 7644 §3.5.2). Entra ID capitalises the operation names
 * ("Replace", "Add"), so they are compared without case.
 */
export function patchOperations(body: unknown): PatchOperation[] {
  const ops = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(ops) || ops.length === 0) throw new ScimError(400, 'Operations are missing', 'invalidSyntax');
  return ops.map((raw: unknown) => {
    const o = (raw ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
    const op = typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError(400, `Unknown op "${String(o.op)}"`, 'invalidSyntax');
    if (o.path !== undefined && typeof o.path !== 'string')
      throw new ScimError(400, 'path must be a string', 'invalidSyntax');
    if (op === 'remove' && !o.path) throw new ScimError(400, 'remove needs a path', 'noTarget');
    return { op, ...(o.path ? { path: o.path } : {}), value: o.value };
  });
}

/** Applies the operations, in order, to `resource` (already a private copy). */
export function applyPatch(resource: ScimJson, ops: PatchOperation[]): void {
  for (const op of ops) {
    if (op.path === undefined) {
      // The path-less form Okta and Entra send: `{ op: "replace", value: { active: false } }`.
      if (!isObject(op.value)) throw invalidValue('An operation without a path needs an object value');
      for (const [key, value] of Object.entries(op.value)) applyAt(resource, op.op, key, value);
    } else {
      applyAt(resource, op.op, op.path, op.value);
    }
  }
}

const PATH = /^([A-Za-z][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z][\w$-]*))?$/;

function applyAt(resource: ScimJson, op: PatchOperation['op'], path: string, value: unknown): void {
  // A schema URN prefix ("urn:…:User:name.givenName") names the core schema's attribute.
  const bare = path.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/, '');
  const m = PATH.exec(bare);
  if (!m) throw invalidPath(path);
  const attr = keyIn(resource, m[1]!);
  const filterText = m[2];
  const sub = m[3];
  if (filterText === undefined) {
    if (sub === undefined) return setAttribute(resource, attr, op, value);
    const holder = isObject(resource[attr]) ? resource[attr] : {};
    resource[attr] = holder;
    return setAttribute(holder, keyIn(holder, sub), op, value);
  }
  let test: (item: ScimJson) => boolean;
  try {
    test = matcher(parse(filterText));
  } catch (err) {
    if (err instanceof ScimError) throw err;
    throw invalidPath(path);
  }
  const items = Array.isArray(resource[attr]) ? (resource[attr] as unknown[]).filter(isObject) : [];
  const hits = items.filter(test);
  if (op === 'remove') {
    resource[attr] =
      sub === undefined ? items.filter((i) => !test(i)) : items.map((i) => (test(i) ? without(i, sub) : i));
    return;
  }
  if (hits.length === 0) {
    // `emails[type eq "work"].value` on an account with no work email yet: that email is added.
    const made: ScimJson = { ...equalities(parse(filterText)) };
    if (sub === undefined) Object.assign(made, isObject(value) ? value : {});
    else made[sub] = value;
    resource[attr] = [...items, made];
    return;
  }
  for (const hit of hits) {
    if (sub === undefined) Object.assign(hit, isObject(value) ? value : {});
    else hit[keyIn(hit, sub)] = value;
  }
  resource[attr] = items;
}

function setAttribute(holder: ScimJson, key: string, op: PatchOperation['op'], value: unknown): void {
  if (op === 'remove') {
    // `remove members` with a value removes those members only (Entra's form); without one, all.
    if (Array.isArray(holder[key]) && Array.isArray(value)) {
      const gone = new Set(value.filter(isObject).map((v) => String(v.value)));
      holder[key] = (holder[key] as unknown[]).filter((i) => !(isObject(i) && gone.has(String(i.value))));
    } else {
      delete holder[key];
    }
    return;
  }
  if (op === 'add' && Array.isArray(holder[key])) {
    holder[key] = [...(holder[key] as unknown[]), ...(Array.isArray(value) ? (value as unknown[]) : [value])];
    return;
  }
  if (op === 'add' && isObject(holder[key]) && isObject(value)) {
    Object.assign(holder[key], value);
    return;
  }
  holder[key] = value;
}

/** The existing key that matches `name` without case (SCIM attribute names are case-insensitive). */
function keyIn(obj: ScimJson, name: string): string {
  const lower = name.toLowerCase();
  return Object.keys(obj).find((k) => k.toLowerCase() === lower) ?? name;
}

function matcher(f: Filter): (item: ScimJson) => boolean {
  if (f.op === 'and') {
    const parts = f.filters.map(matcher);
    return (item) => parts.every((p) => p(item));
  }
  if (f.op === 'eq') {
    const want = f.compValue;
    return (item) => {
      const have = item[keyIn(item, f.attrPath)];
      return typeof have === 'string' && typeof want === 'string'
        ? have.toLowerCase() === want.toLowerCase()
        : String(have) === String(want);
    };
  }
  throw new ScimError(400, 'Only "eq" tests are supported in a path', 'invalidFilter');
}

function equalities(f: Filter): ScimJson {
  if (f.op === 'eq') return { [f.attrPath]: f.compValue };
  if (f.op === 'and') return Object.assign({}, ...f.filters.map(equalities)) as ScimJson;
  return {};
}

function without(item: ScimJson, key: string): ScimJson {
  const copy = { ...item };
  delete copy[keyIn(copy, key)];
  return copy;
}

export const isObject = (v: unknown): v is ScimJson => typeof v === 'object' && v !== null && !Array.isArray(v);
