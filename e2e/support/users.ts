import { type APIRequestContext, expect } from '@playwright/test';

let counter = 0;

/** A short token unique across workers and runs: time, process and a counter. */
export function uniqueToken(): string {
  counter += 1;
  const time = Date.now().toString(36).slice(-6);
  const proc = (process.pid % 1296).toString(36).padStart(2, '0');
  const rand = Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, '0');
  return `${time}${proc}${rand}${counter.toString(36)}`;
}

/** A mainland mobile number: 13 followed by nine random digits. */
export function uniquePhone(): string {
  let digits = '';
  for (let i = 0; i < 9; i++) digits += Math.floor(Math.random() * 10).toString();
  return `13${digits}`;
}

export interface TestUser {
  id: number;
  email: string;
  username: string;
  phone: string | null;
  password: string;
}

/** Fresh, unused registration data; usernames stay within 20 characters of [A-Za-z0-9_-]. */
export function newUserData(prefix = 'u', withPhone = false): Omit<TestUser, 'id'> {
  const token = uniqueToken();
  const username = `${prefix.slice(0, 5)}_${token}`.slice(0, 20);
  return {
    email: `${username.toLowerCase()}@e2e.example.com`,
    username,
    phone: withPhone ? uniquePhone() : null,
    password: `Pw-${token}`,
  };
}

/** Creates a user through POST /api/auth/register (fast; the register UI has its own spec). */
export async function registerViaApi(
  request: APIRequestContext,
  options: { prefix?: string; withPhone?: boolean } = {},
): Promise<TestUser> {
  const data = newUserData(options.prefix, options.withPhone);
  const res = await request.post('/api/auth/register', {
    data: { ...data, confirmPassword: data.password },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { data: { id: number } };
  return { ...data, id: body.data.id };
}
