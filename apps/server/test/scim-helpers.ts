import type { ApiResponse, TestApp } from './test-app.js';

/** A SCIM answer: its body is the resource itself, not the API's envelope. */
export type ScimResponse<T> = Omit<ApiResponse, 'body'> & { body: T };

/** A SCIM request as an identity provider sends it: its media type, its bearer token. */
export function scim<T = Record<string, unknown>>(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  body?: unknown,
): Promise<ScimResponse<T>> {
  return t.request(method, `/scim/v2${url}`, {
    token,
    ...(body !== undefined ? { body, headers: { 'content-type': 'application/scim+json' } } : {}),
  }) as unknown as Promise<ScimResponse<T>>;
}

/** A SCIM token made by the super administrator through the admin call. */
export async function scimToken(
  t: TestApp,
  superToken: string,
  name = 'directory',
): Promise<{ id: number; token: string }> {
  const res = await t.post<{ id: number; name: string; token: string }>('/api/admin/scim-tokens', { name }, superToken);
  if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}
