import { type Locator, type Page, expect } from '@playwright/test';
import { parseExpiresIn } from '../../apps/web/src/stores/expires-in';

export const AUTH_STORAGE_KEY = 'aiplatform-auth';

/** A toast (antd message) with the given text. */
export function toast(page: Page, text: string | RegExp): Locator {
  // A notice on its way out (fade-leave) is skipped: saving twice within its 3 s
  // life would otherwise match both the old notice and the new one.
  return page.locator('.ant-message-notice:not(.ant-message-fade-leave)').filter({ hasText: text });
}

/** The error message shown under a form field. */
export function fieldError(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-form-item-explain-error').filter({ hasText: text });
}

/**
 * Starts a signed-in session without the login screen: the credentials go to
 * POST /api/auth/login and the answer is stored the way the app stores it after signing in,
 * then `path` is opened; with `null` nothing is opened and the caller's next `page.goto` finds
 * the session. One page load instead of three (login, dashboard, target) keeps the suite's CPU
 * use down on a 2-core machine; specs about signing in use `loginViaUi`.
 */
export async function signInDirect(
  page: Page,
  account: string,
  password: string,
  path: string | null = '/dashboard',
): Promise<void> {
  const res = await page.request.post('/api/auth/login', { data: { account, password } });
  expect(res.status(), await res.text()).toBe(200);
  const { data } = (await res.json()) as { data: LoginAnswer };
  const entry: StoredAuth = {
    state: {
      user: data.user,
      permissions: data.permissions,
      abilities: data.abilities,
      accessToken: data.accessToken,
      refreshToken: data.refreshToken,
      tokenExpiresAt: Date.now() + parseExpiresIn(data.expiresIn),
      isAuthenticated: true,
      siteConfig: data.siteConfig,
    },
    version: 0,
  };
  // A same-origin document without the app, so nothing reads the store before it is written.
  await page.goto('/favicon.svg');
  await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), {
    key: AUTH_STORAGE_KEY,
    value: JSON.stringify(entry),
  });
  if (path === null) return;
  await page.goto(path);
  // The first load of the app on a loaded 2-core machine can pass the default 10 s.
  if (path === '/dashboard') await expect(page.getByTestId('dashboard-welcome')).toBeVisible({ timeout: 30_000 });
}

interface LoginAnswer {
  user: { id: number; username: string; email: string };
  permissions: string[];
  abilities: unknown;
  accessToken: string;
  refreshToken: string;
  expiresIn: string;
  siteConfig: unknown;
}

/** Signs in on the password tab of /login and waits for the dashboard. */
export async function loginViaUi(page: Page, account: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  // Signing in loads the layout's and the dashboard's code for the first time; on a loaded
  // 2-core machine that alone can pass the default 10 s. Speed is the bench's business.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(page.getByTestId('dashboard-welcome')).toBeVisible({ timeout: 30_000 });
}

/** Opens the header user menu and chooses an entry. */
export async function chooseUserMenu(page: Page, entry: 'profile' | 'logout'): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId(`user-menu-${entry}`).click();
}

export interface StoredAuth {
  state: {
    accessToken: string | null;
    refreshToken: string | null;
    tokenExpiresAt: number | null;
    isAuthenticated: boolean;
    user: { id: number; username: string; email: string } | null;
    permissions?: string[];
    abilities?: unknown;
    siteConfig?: unknown;
  };
  version?: number;
}

/** The persisted auth session (zustand `persist` entry in localStorage). */
export async function readStoredAuth(page: Page): Promise<StoredAuth | null> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), AUTH_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as StoredAuth) : null;
}
