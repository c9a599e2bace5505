import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect, request as requests, test } from '@playwright/test';
import { type RunningIdp, type TestPerson, startTestIdp } from '../../apps/server/test/oidc-fixtures.js';
import { AdminApi, type GroupRow, newContextIn, selectOption, signInAsSuperAdmin } from '../support/admin';
import { toast } from '../support/ui';
import { uniqueToken } from '../support/users';

// Providers show on everyone's sign-in page and the SSO-only switch changes how everyone
// signs in: these run alone (project 'settings', after every other spec), one at a time,
// and remove what they added.
test.describe.configure({ mode: 'serial' });

const run = uniqueToken()
  .toLowerCase()
  .replace(/[^a-z0-9]/g, '');
const CORP = { slug: `corp-${run}`, name: `Corp ${run}` };
const PARTNER = { slug: `partner-${run}`, name: `Partner ${run}` };
const callbackOf = (slug: string) => `${process.env.E2E_BASE_URL}/api/auth/sso/${slug}/callback`;

const alice: TestPerson = {
  sub: `alice-${run}`,
  email: `alice-${run}@corp.example`,
  email_verified: true,
  name: 'Alice Example',
  preferred_username: `alice${run}`,
  groups: ['engineering'],
};
const bob: TestPerson = {
  sub: `bob-${run}`,
  email: `bob-${run}@partner.example`,
  email_verified: true,
  preferred_username: `bob${run}`,
  groups: [],
};
/** Carries the email of a local account made beforehand: never merged into it. */
const mallory: TestPerson = {
  sub: `mallory-${run}`,
  email: '',
  email_verified: false,
  preferred_username: `mallory${run}`,
};

let corp: RunningIdp;
let partner: RunningIdp;
let api: APIRequestContext;
let admin: AdminApi;
let engineering: GroupRow;
const providerIds: number[] = [];

/** The one-time sign-in at the test provider: its own page, a username, a button. */
async function signInAtProvider(page: Page, person: TestPerson) {
  await page.getByLabel('Username').fill(person.preferred_username ?? '');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function axeSerious(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

test.beforeAll(async () => {
  corp = await startTestIdp([callbackOf(CORP.slug)], { loginForm: { title: 'Corp sign-in', people: [alice] } });
  partner = await startTestIdp([callbackOf(PARTNER.slug)], {
    loginForm: { title: 'Partner sign-in', people: [bob, mallory] },
  });
  // Its own request context: the one of a hook cannot be used by the tests.
  api = await requests.newContext({ baseURL: process.env.E2E_BASE_URL });
  admin = await AdminApi.superAdmin(api);
  engineering = await admin.createGroup('eng');
});

test.afterAll(async () => {
  await admin.raw('PUT', '/admin/settings', { login: { local_password: 'all' } });
  for (const id of providerIds) await admin.raw('DELETE', `/admin/identity-providers/${id}`);
  await corp?.close();
  await partner?.close();
  await api?.dispose();
});

test('an administrator connects a provider from the identity screen, with a group mapping', async ({ page }) => {
  await signInAsSuperAdmin(page, '/admin/identity');
  await expect(page.getByRole('heading', { name: '身份与账号同步' })).toBeVisible();
  await page.getByTestId('provider-create-button').click();
  await page.getByTestId('provider-name').fill(CORP.name);
  await page.getByTestId('provider-slug').fill(CORP.slug);
  // The address to register at the provider follows the slug as it is typed.
  await expect(page.getByText(callbackOf(CORP.slug)).first()).toBeVisible();
  await page.getByTestId('provider-issuer').fill(corp.issuer);
  await page.getByTestId('provider-client-id').fill(corp.clientId);
  await page.getByTestId('provider-client-secret').fill(corp.clientSecret);
  // Like Okta, this provider sends the groups claim only for its own scope.
  await page.getByTestId('provider-scopes').fill('openid email profile groups');
  await page.getByTestId('provider-add-group-map').click();
  await page.getByPlaceholder(/例如 engineering/).fill('engineering');
  // Typed to narrow the list: among many groups the option is not rendered until it is in view.
  await page.getByRole('combobox', { name: '本站用户组' }).fill(engineering.name);
  await selectOption(page, engineering.name).click();
  await page.getByTestId('provider-form-submit').click();
  await expect(toast(page, `已连接 ${CORP.name}`)).toBeVisible();
  await expect(page.getByTestId(`provider-row-${CORP.slug}`)).toBeVisible();

  // The stored configuration reaches the provider (discovery fetched).
  await page.getByTestId(`provider-test-${CORP.slug}`).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText(`${CORP.name} 可以使用`);
  await page.getByRole('dialog').getByRole('button').last().click();

  const listed = (await (await admin.raw('GET', '/admin/identity-providers')).json()) as {
    data: { id: number; slug: string; config: Record<string, unknown> }[];
  };
  const stored = listed.data.find((p) => p.slug === CORP.slug);
  expect(stored?.config).toMatchObject({ has_client_secret: true });
  expect(JSON.stringify(stored)).not.toContain(corp.clientSecret);
  providerIds.push(stored!.id);
  expect(await axeSerious(page)).toEqual([]);
});

test('a test sign-in shows what the provider sent and the mapped group, creating nobody', async ({ page }) => {
  await signInAsSuperAdmin(page, '/admin/identity');
  await page.getByTestId(`provider-preview-${CORP.slug}`).click();
  await expect(page.getByRole('heading', { name: 'Corp sign-in' })).toBeVisible();
  await signInAtProvider(page, alice);
  const preview = page.getByTestId('sso-preview');
  await expect(preview).toBeVisible();
  // The single-use code is taken out of the address at once.
  await expect(page).toHaveURL(/\/admin\/identity$/);
  await expect(preview.getByTestId('sso-preview-groups')).toHaveText('engineering');
  await expect(preview.getByTestId('sso-preview-outcome')).toContainText(`将在用户组 ${engineering.name} 中创建新账号`);
  await expect(preview.getByTestId('sso-preview-claims')).toContainText(alice.sub);

  const users = (await (await admin.raw('GET', `/admin/users?search=${encodeURIComponent(alice.email)}`)).json()) as {
    data: unknown[];
  };
  expect(users.data).toEqual([]);
});

test('a person signs in at the provider and lands on the page asked for, in the mapped group', async ({ browser }) => {
  const context = await newContextIn(browser, 'zh-CN');
  const page = await context.newPage();
  await page.goto('/login?redirect=/profile');
  await page.getByTestId(`sso-${CORP.slug}`).click();
  await expect(page.getByRole('heading', { name: 'Corp sign-in' })).toBeVisible();
  await signInAtProvider(page, alice);
  await expect(page).toHaveURL(/\/profile$/);
  // The one-time code does not stay in the address or the history.
  expect(page.url()).not.toContain('code=');

  const users = (await (await admin.raw('GET', `/admin/users?search=${encodeURIComponent(alice.email)}`)).json()) as {
    data: { email: string; group_id: number; role: string }[];
  };
  expect(users.data).toEqual([expect.objectContaining({ email: alice.email, group_id: engineering.id, role: 'user' })]);
  await context.close();
});

test('a second provider works beside the first, and a refusal says why in the reader language', async ({ browser }) => {
  const created = await admin.raw('POST', '/admin/identity-providers', {
    type: 'oidc',
    slug: PARTNER.slug,
    name: PARTNER.name,
    jit: true,
    config: { issuer: partner.issuer, client_id: partner.clientId, client_secret: partner.clientSecret },
  });
  expect(created.status()).toBe(201);
  providerIds.push(((await created.json()) as { data: { id: number } }).data.id);
  // A local account holds the email the partner will send unverified.
  const local = await admin.createUser({ prefix: 'local' });
  mallory.email = local.email;

  const context = await newContextIn(browser, 'en-US');
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByTestId(`sso-${CORP.slug}`)).toHaveText(`Continue with ${CORP.name}`);
  await page.getByTestId(`sso-${PARTNER.slug}`).click();
  await signInAtProvider(page, bob);
  await expect(page).toHaveURL(/\/dashboard$/);

  const other = await newContextIn(browser, 'en-US');
  const refused = await other.newPage();
  await refused.goto('/login');
  await refused.getByTestId(`sso-${PARTNER.slug}`).click();
  await signInAtProvider(refused, mallory);
  await expect(refused).toHaveURL(/\/login\?sso_error=SSO_EMAIL_CONFLICT$/);
  await expect(refused.getByTestId('sso-error')).toHaveText(
    'An account with this email already exists; ask your administrator to link it to single sign-on',
  );
  expect(await axeSerious(refused)).toEqual([]);
  await context.close();
  await other.close();
});

test('single sign-on only: providers first, local passwords kept for super administrators', async ({
  page,
  browser,
}) => {
  const user = await admin.createUser({ prefix: 'pw' });
  await signInAsSuperAdmin(page, '/admin/identity');
  await page.getByTestId('sso-only-switch').click();
  await expect(toast(page, '已改为仅允许单点登录（超级管理员保留密码）')).toBeVisible();

  const context = await newContextIn(browser, 'zh-CN');
  const login = await context.newPage();
  await login.goto('/login');
  // The providers come first; the password form stays for the break-glass account.
  const first = login.getByTestId('sso-buttons');
  await expect(first).toBeVisible();
  await expect(login.getByTestId('login-tab-code')).toHaveCount(0);
  const box = await first.boundingBox();
  const form = await login.getByTestId('login-account').boundingBox();
  expect(box!.y).toBeLessThan(form!.y);
  await login.getByTestId('login-account').fill(user.email);
  await login.getByTestId('login-password').fill(user.password);
  await login.getByTestId('login-submit').click();
  await expect(toast(login, '密码登录已关闭，请使用所在组织的统一登录')).toBeVisible();
  await expect(login).toHaveURL(/\/login/);
  await context.close();
});
