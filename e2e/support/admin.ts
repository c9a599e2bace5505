import { type APIRequestContext, type Browser, type BrowserContext, type Page, expect } from '@playwright/test';
import { ADMIN } from './global-setup.js';
import { signInDirect } from './ui.js';
import { type TestUser, newUserData, uniqueToken } from './users.js';

/**
 * Admin helpers: an API client with an administrator's bearer token for fast set-up
 * (groups, users, pools), and the common steps on the admin screens.
 */

export type Language = 'zh-CN' | 'en-US';
export const LANGUAGES: readonly Language[] = ['zh-CN', 'en-US'];

export type Role = 'super_admin' | 'admin' | 'user';

export interface AdminUserRow {
  id: number;
  username: string;
  email: string;
  role: Role;
  status: 'active' | 'inactive';
  group_id: number | null;
  group_name: string | null;
  credits_stats: { remaining: number };
}

export interface GroupRow {
  id: number;
  name: string;
  credits_pool: number;
  credits_pool_used: number;
  credits_pool_remaining: number;
  user_count: number;
}

/** A user created by an administrator, with the password to sign in. */
export interface ManagedUser extends TestUser {
  role: Role;
  group_id: number | null;
}

/** The admin API, each call with the bearer token of a password login. */
export class AdminApi {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
    readonly userId: number,
  ) {}

  static async login(request: APIRequestContext, account = ADMIN.email, password = ADMIN.password): Promise<AdminApi> {
    const res = await request.post('/api/auth/login', { data: { account, password } });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { data: { accessToken: string; user: { id: number } } };
    return new AdminApi(request, body.data.accessToken, body.data.user.id);
  }

  /** The super administrator created by global setup. */
  static superAdmin(request: APIRequestContext): Promise<AdminApi> {
    return AdminApi.login(request);
  }

  static as(request: APIRequestContext, user: TestUser): Promise<AdminApi> {
    return AdminApi.login(request, user.email, user.password);
  }

  /** The raw answer, for refusals. */
  raw(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown) {
    return this.request.fetch(`/api${url}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}` },
      ...(data === undefined ? {} : { data }),
    });
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown): Promise<T> {
    const res = await this.raw(method, url, data);
    expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: T }).data;
  }

  /** A new group with a unique name. */
  createGroup(prefix = 'grp'): Promise<GroupRow> {
    return this.call('POST', '/admin/user-groups', { name: `${prefix}-${uniqueToken()}` });
  }

  setPool(groupId: number, credits: number): Promise<GroupRow> {
    return this.call('PUT', `/admin/user-groups/${groupId}/credits-pool`, { credits_pool: credits });
  }

  group(groupId: number): Promise<GroupRow> {
    return this.call('GET', `/admin/user-groups/${groupId}`);
  }

  /** A new account created by this administrator, by default a plain user of the default group. */
  async createUser(
    options: {
      prefix?: string;
      username?: string;
      role?: Role;
      groupId?: number;
      credits?: number;
      remark?: string;
      withPhone?: boolean;
    } = {},
  ): Promise<ManagedUser> {
    const generated = newUserData(options.prefix ?? 'adm', options.withPhone);
    const data = options.username
      ? { ...generated, username: options.username, email: `${options.username.toLowerCase()}@e2e.example.com` }
      : generated;
    const created = await this.call<AdminUserRow>('POST', '/admin/users', {
      username: data.username,
      email: data.email,
      password: data.password,
      phone: data.phone,
      ...(options.role ? { role: options.role } : {}),
      ...(options.groupId ? { group_id: options.groupId } : {}),
      ...(options.credits !== undefined ? { credits_quota: options.credits } : {}),
      ...(options.remark ? { remark: options.remark } : {}),
    });
    return { ...data, id: created.id, role: created.role, group_id: created.group_id };
  }

  user(id: number): Promise<AdminUserRow> {
    return this.call('GET', `/admin/users/${id}`);
  }

  setStatus(id: number, status: 'active' | 'inactive'): Promise<AdminUserRow> {
    return this.call('PUT', `/admin/users/${id}/status`, { status });
  }

  adjustCredits(id: number, body: { operation: 'add' | 'deduct' | 'set'; amount: number; reason: string }) {
    return this.call('POST', `/admin/users/${id}/credits`, body);
  }
}

/** Signs in as the super administrator without the login screen (see `signInDirect`). */
export function signInAsSuperAdmin(page: Page, path: string | null = '/dashboard'): Promise<void> {
  return signInDirect(page, ADMIN.email, ADMIN.password, path);
}

/** A fresh browser context in a language, e.g. for a second user beside the administrator. */
export function newContextIn(browser: Browser, language: Language): Promise<BrowserContext> {
  return browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: language });
}

/** Opens an admin screen and waits for its table. */
export async function openAdminPage(page: Page, screen: 'users' | 'groups' | 'audit'): Promise<void> {
  await page.goto(`/admin/${screen}`);
  // A full page load: the app, the layout and the screen's code are fetched and parsed again,
  // which on a loaded 2-core machine can pass the default 10 s.
  await expect(page.getByTestId(`${screen}-table`)).toBeVisible({ timeout: 30_000 });
}

/** The user list narrowed by the search box (username, email or phone). */
export async function searchUsers(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('user-search').locator('input');
  const listed = page.waitForResponse(
    (r) =>
      r.url().includes('/api/admin/users?') &&
      new URL(r.url()).searchParams.get('search') === text &&
      r.request().method() === 'GET',
  );
  await input.fill(text);
  await input.press('Enter');
  expect((await listed).status()).toBe(200);
}

/** A data row of an antd table (not the measure or placeholder rows). */
export function tableRows(page: Page, testId: string) {
  return page.getByTestId(testId).locator('tbody tr.ant-table-row');
}

/** The row of one user in the user list. */
export function userRow(page: Page, userId: number) {
  return page.getByTestId('users-table').locator(`tr.ant-table-row[data-row-key="${userId}"]`);
}

/** The dialog of an antd Modal or Drawer whose root carries the test id. */
export function dialog(page: Page, testId: string) {
  return page.getByTestId(testId).getByRole('dialog');
}

/** The confirm button of the open Popconfirm with this title. */
export function popconfirmOk(page: Page, title: string | RegExp) {
  return page.locator('.ant-popconfirm').filter({ hasText: title }).locator('.ant-popconfirm-buttons .ant-btn').last();
}

/** An option of the open antd Select dropdown. */
export function selectOption(page: Page, text: string | RegExp) {
  return page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text });
}
