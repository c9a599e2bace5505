import { type Locator, type Page, expect } from '@playwright/test';

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
  };
  version?: number;
}

/** The persisted auth session (zustand `persist` entry in localStorage). */
export async function readStoredAuth(page: Page): Promise<StoredAuth | null> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), AUTH_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as StoredAuth) : null;
}
