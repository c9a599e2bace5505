import { ERROR_CODES } from '@aiplatform/contracts';
import { expect } from 'vitest';
import type { ApiResponse } from './test-app.js';

/*
 * Shared cases of the bad-input tests (auth and chat): whatever a client sends, the
 * answer is a 4xx error envelope — never a 5xx, never a stack trace.
 */

const JSON_TYPE = { 'content-type': 'application/json' };

/** Bodies that fail before any schema: [name, payload, headers, expected status, expected code]. */
export const PARSE_CASES: [string, string, Record<string, string>, number, string][] = [
  ['malformed JSON', '{"account": "x",', JSON_TYPE, 400, 'INVALID_JSON'],
  ['truncated string', '{"account": "x', JSON_TYPE, 400, 'INVALID_JSON'],
  ['empty JSON body', '', JSON_TYPE, 400, 'INVALID_JSON'],
  ['prototype poisoning', '{"__proto__": {"role": "super_admin"}}', JSON_TYPE, 400, 'INVALID_JSON'],
  ['constructor poisoning', '{"constructor": {"prototype": {"role": "super_admin"}}}', JSON_TYPE, 400, 'INVALID_JSON'],
  [
    'form-encoded body',
    'account=x&password=y',
    { 'content-type': 'application/x-www-form-urlencoded' },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
  ],
  [
    'body over 1 MB',
    JSON.stringify({ account: 'a'.repeat(1024 * 1024 + 10), password: 'x' }),
    JSON_TYPE,
    413,
    'PAYLOAD_TOO_LARGE',
  ],
];

/** Bodies that parse but are not the expected object: [payload, content type]. */
export const NOT_OBJECTS: [string, string][] = [
  ...['null', '[]', '[{"account":"x"}]', '123', '"text"', 'true', '{}'].map((p): [string, string] => [
    p,
    'application/json',
  ]),
  ['account=x', 'text/plain'],
];

/** Values of the wrong type for any field. */
export const WRONG_TYPES: [string, unknown][] = [
  ['number', 12345],
  ['float', 1.5],
  ['array', ['x']],
  ['object', { nested: 'x' }],
  ['boolean', true],
  ['null', null],
];

/** Strings no field accepts, or that must not reach the database as they are. */
export const HOSTILE_STRINGS: [string, string][] = [
  ['10 KB string', 'a'.repeat(10 * 1024)],
  ['NUL character', 'ab\u0000cd@example.com'],
  ['string that grows when lower-cased', '\u0130'.repeat(254)],
  ['SQL-looking text', "' OR 1=1 --"],
];

export function expectErrorEnvelope(res: ApiResponse, label: string) {
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.body, label).toMatchObject({ success: false, code: res.status });
  expect(ERROR_CODES, label).toContain(res.body.error);
  expect(typeof res.body.message, label).toBe('string');
  expect(res.body.message.length, label).toBeGreaterThan(0);
  expect(typeof res.body.requestId, label).toBe('string');
  expect(res.text, label).not.toMatch(/at .+\.(ts|js):\d+/);
}
