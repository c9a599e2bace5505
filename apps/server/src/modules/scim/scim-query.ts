import { type Filter, parse } from 'scim2-parse-filter';
import { MAX_PAGE } from './scim-discovery.js';
import { ScimError, invalidValue } from './scim-errors.js';

/** The equality tests a list may be filtered by, keyed by attribute (lower-cased). */
export type EqualityFilter = Map<string, string>;

const unsupported = (detail: string) => new ScimError(400, detail, 'invalidFilter');

/**
 * Reads `filter` as a conjunction of `attr eq "value"` tests on the attributes `allowed`
 * (lower-cased). That is what Entra ID and Okta send; anything else is refused with
 * `invalidFilter` rather than answered with a wrong list. `emails[type eq "work"]`, which Entra
 * adds to an email test, is accepted and ignored: an account has one email.
 */
export function equalityFilter(text: string | undefined, allowed: ReadonlySet<string>): EqualityFilter {
  const tests: EqualityFilter = new Map();
  if (text === undefined || text.trim() === '') return tests;
  let ast: Filter;
  try {
    ast = parse(text);
  } catch {
    throw unsupported('The filter cannot be parsed');
  }
  const visit = (f: Filter): void => {
    if (f.op === 'and') {
      for (const part of f.filters) visit(part);
      return;
    }
    if (f.op === '[]' && f.attrPath.toLowerCase() === 'emails' && isTypeTest(f.valFilter)) return;
    if (f.op !== 'eq') throw unsupported(`Only "eq" tests joined by "and" are supported`);
    const attr = f.attrPath.toLowerCase();
    if (!allowed.has(attr)) throw unsupported(`Filtering by ${f.attrPath} is not supported`);
    if (typeof f.compValue !== 'string') throw unsupported(`${f.attrPath} is compared with a string`);
    const before = tests.get(attr);
    // `a eq "x" and a eq "y"` matches nothing: kept as an impossible pair of tests.
    tests.set(attr, before === undefined || before === f.compValue ? f.compValue : '\u0000');
  };
  visit(ast);
  return tests;
}

const isTypeTest = (f: Filter) => f.op === 'eq' && f.attrPath.toLowerCase() === 'type';

export interface Paging {
  /** 1-based, as SCIM counts. */
  startIndex: number;
  count: number;
}

/** `startIndex` and `count` (RFC 7644 §3.4.2.4): below 1 reads as 1, a negative count as 0. */
export function pagingOf(query: Record<string, unknown>): Paging {
  const int = (name: string, fallback: number): number => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n)) throw invalidValue(`${name} must be an integer`);
    return n;
  };
  return {
    startIndex: Math.min(Math.max(1, int('startIndex', 1)), 2_000_000_000),
    count: Math.min(Math.max(0, int('count', 100)), MAX_PAGE),
  };
}

/** `excludedAttributes=members` (Entra asks for groups without their members). */
export function excludes(query: Record<string, unknown>, attribute: string): boolean {
  const raw = query.excludedAttributes;
  return (
    typeof raw === 'string' &&
    raw
      .split(',')
      .map((a) => a.trim().toLowerCase())
      .includes(attribute.toLowerCase())
  );
}
