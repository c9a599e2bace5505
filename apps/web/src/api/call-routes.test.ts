import { API_CALLS } from '@aiplatform/contracts';
import CALL_ROUTES from 'virtual:call-routes';
import { describe, expect, it } from 'vitest';

describe('the call routes the client bundles', () => {
  it('give every call of the table its method and path, and nothing more', () => {
    const expected = Object.fromEntries(
      Object.entries(API_CALLS).map(([name, spec]) => [name, { method: spec.method, path: spec.path }]),
    );
    expect(CALL_ROUTES).toEqual(expected);
    expect(Object.keys(CALL_ROUTES)).toContain('getPublicConfig');
  });
});
