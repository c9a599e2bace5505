import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { AUTH_STORAGE_KEY, type StoredAuth, chooseUserMenu, readStoredAuth, signInDirect, toast } from '../support/ui';
import { registerViaApi } from '../support/users';

/**
 * Rewrites the stored session from a second tab of the same origin, as another tab of the
 * app would; the running app picks it up through the `storage` event. Resolves once the
 * first tab has received that event.
 */
async function rewriteSessionFromOtherTab(
  context: BrowserContext,
  page: Page,
  change: { accessToken?: string; refreshToken?: string; tokenExpiresAt?: number },
): Promise<void> {
  const received = page.evaluate(
    (key) =>
      new Promise<void>((resolve) => {
        window.addEventListener('storage', (event) => {
          if (event.key === key) resolve();
        });
      }),
    AUTH_STORAGE_KEY,
  );
  const other = await context.newPage();
  // Any same-origin page shares localStorage; the bare API answer runs no app code.
  await other.goto('/api/ready');
  await other.evaluate(
    ({ key, patch }) => {
      const stored = JSON.parse(window.localStorage.getItem(key) ?? '{}') as { state: Record<string, unknown> };
      stored.state = { ...stored.state, ...patch };
      window.localStorage.setItem(key, JSON.stringify(stored));
    },
    { key: AUTH_STORAGE_KEY, patch: change },
  );
  await received;
  await other.close();
}

const EXPIRED_LOOKING_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VySWQiOjEsImV4cCI6MTAwMDAwMDAwMH0.invalid-signature';

test.describe('session', () => {
  test('sign out from the user menu ends the session; protected pages then ask to log in', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'out' });
    await signInDirect(page, user.email, user.password);
    const before = await readStoredAuth(page);
    const token = before?.state.accessToken;
    expect(token).toBeTruthy();

    await chooseUserMenu(page, 'logout');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-account')).toBeVisible();
    const after = await readStoredAuth(page);
    expect(after?.state.accessToken ?? null).toBeNull();
    expect(after?.state.isAuthenticated ?? false).toBe(false);
    // The server revoked the session too.
    const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(401);

    await page.goto('/profile');
    await expect(toast(page, '请先登录')).toBeVisible();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
  });

  test('a refused access token is refreshed silently and the request retried', async ({ page, context, request }) => {
    const user = await registerViaApi(request, { prefix: 'refr' });
    await signInDirect(page, user.email, user.password);
    // The dashboard's first requests have answered, so none stores the old session after the rewrite.
    await page.waitForLoadState('networkidle');
    const original = (await readStoredAuth(page)) as StoredAuth;

    await rewriteSessionFromOtherTab(context, page, {
      accessToken: EXPIRED_LOOKING_TOKEN,
      tokenExpiresAt: Date.now() + 3_600_000,
    });

    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh'));
    const history = page.waitForResponse((r) => r.url().includes('/api/auth/credit-history') && r.status() === 200);
    await chooseUserMenu(page, 'profile');
    await page.getByTestId('profile-tab-credits').click();
    expect((await refreshed).status()).toBe(200);
    await history;

    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('credit-history-table').locator('tbody tr.ant-table-row')).toContainText('注册赠送');
    await expect(page.getByTestId('profile-info-card')).toContainText(user.email);
    await expect(toast(page, '登录已过期，请重新登录')).toHaveCount(0);

    const now = (await readStoredAuth(page)) as StoredAuth;
    expect(now.state.isAuthenticated).toBe(true);
    expect(now.state.accessToken).not.toBe(EXPIRED_LOOKING_TOKEN);
    expect(now.state.accessToken).not.toBe(original.state.accessToken);
    expect(now.state.refreshToken).not.toBe(original.state.refreshToken);
    const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${now.state.accessToken}` } });
    expect(me.status()).toBe(200);
  });

  test('an access token stored as expired is refreshed when the app starts', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'boot' });
    await signInDirect(page, user.email, user.password);
    // The app is closed first: a running dashboard may store its session again (any change to
    // it is persisted) after the write below, putting the valid token back.
    await page.goto('/api/ready');
    await page.evaluate(
      ({ key, token }) => {
        const stored = JSON.parse(window.localStorage.getItem(key) ?? '{}') as { state: Record<string, unknown> };
        stored.state = { ...stored.state, accessToken: token, tokenExpiresAt: Date.now() - 60_000 };
        window.localStorage.setItem(key, JSON.stringify(stored));
      },
      { key: AUTH_STORAGE_KEY, token: EXPIRED_LOOKING_TOKEN },
    );
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh'));
    await page.goto('/profile');
    expect((await refreshed).status()).toBe(200);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('profile-info-card')).toContainText(user.email);
    const now = (await readStoredAuth(page)) as StoredAuth;
    expect(now.state.accessToken).not.toBe(EXPIRED_LOOKING_TOKEN);
    expect(now.state.tokenExpiresAt ?? 0).toBeGreaterThan(Date.now());
    const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${now.state.accessToken}` } });
    expect(me.status()).toBe(200);
  });

  test('when the refresh fails too, the user is told and sent to /login a second later', async ({
    page,
    context,
    request,
  }) => {
    const user = await registerViaApi(request, { prefix: 'dead' });
    await signInDirect(page, user.email, user.password);
    // The dashboard's first requests have answered, so none stores the old session after the rewrite.
    await page.waitForLoadState('networkidle');

    await rewriteSessionFromOtherTab(context, page, {
      accessToken: EXPIRED_LOOKING_TOKEN,
      refreshToken: 'not-a-valid-refresh-token',
      tokenExpiresAt: Date.now() + 3_600_000,
    });

    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh'));
    await chooseUserMenu(page, 'profile');
    await page.getByTestId('profile-tab-credits').click();
    expect((await refreshed).status()).toBe(401);
    const refusedAt = Date.now();

    await expect(toast(page, '登录已过期，请重新登录')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 });
    // The redirect waits about a second so the message can be read.
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(800);
    await expect(page.getByTestId('login-account')).toBeVisible();
    const after = await readStoredAuth(page);
    expect(after?.state.isAuthenticated ?? false).toBe(false);
    expect(after?.state.accessToken ?? null).toBeNull();
  });
});
