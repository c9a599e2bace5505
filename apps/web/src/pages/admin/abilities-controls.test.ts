import {
  type AdminUserDetail,
  type Group,
  type GroupAbilities,
  type SessionAbilities,
  type UserAbilities,
} from '@aiplatform/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { type ReactElement, createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AccessGuard } from '../../components/common/AccessGuard';
import { NO_ABILITIES } from '../../stores/abilities';
import { useAuthStore } from '../../stores/auth-store';
import { GroupRowActions } from './groups/GroupRowActions';
import { UserDetailTabs } from './users/UserDetailDrawer';
import { UserRowActions } from './users/UserRowActions';

// The app's i18n setup and theme store read the browser page; stand-ins serve the server-side render.
vi.mock('../../i18n', async () => {
  const { default: i18n } = await import('i18next');
  return { i18n, currentLanguage: () => 'en-US', translateMessageKey: (key: string) => key };
});
vi.mock('../../theme/theme-store', () => ({ useResolvedTheme: () => 'light' }));

/*
 * The controls of the admin screens follow the abilities the server sent, and nothing else:
 * the same account, with the same role, shows different buttons as its abilities differ.
 */

const NONE: UserAbilities = {
  update: false,
  status: false,
  password: false,
  delete: false,
  role: false,
  move: false,
  permissions: false,
  'credits.read': false,
  'credits.adjust': false,
  'pool.transfer': false,
  'data.export': false,
  erase: false,
};

const user = (abilities: Partial<UserAbilities>): AdminUserDetail => ({
  id: 7,
  username: 'member',
  email: 'member@example.com',
  phone: null,
  role: 'user',
  status: 'active',
  group_id: 2,
  group_name: 'Team',
  group_color: '#1677ff',
  avatar_url: null,
  created_at: '2026-01-01T00:00:00.000Z',
  last_login_at: null,
  token_quota: 0,
  token_used: 0,
  credits_stats: {
    quota: 10,
    used: 0,
    remaining: 10,
    usageRate: 0,
    isExpired: false,
    expireAt: null,
    remainingDays: null,
  },
  remark: null,
  credits_quota: 10,
  credits_used: 0,
  credits_expire_at: null,
  extra_permissions: [],
  group_pinned: false,
  sessions: [],
  abilities: { ...NONE, ...abilities },
});

const group = (abilities: Partial<GroupAbilities>): Group => ({
  id: 2,
  name: 'Team',
  description: '',
  color: '#1677ff',
  sort_order: 0,
  status: 'active',
  user_count: 1,
  user_limit: null,
  retention_days: null,
  credits_pool: 0,
  credits_pool_used: 0,
  credits_pool_remaining: 0,
  site_name: null,
  site_logo: null,
  site_config_enabled: false,
  avg_credits_used: 0,
  avg_tokens_used: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  permissions: [],
  abilities: { manage: false, 'pool.transfer': false, announcement: false, permissions: false, ...abilities },
});

const render = (element: ReactElement) =>
  renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, element));
const noop = () => undefined;

/** The data-testids in the markup that start with `prefix`. */
const testIds = (html: string, prefix: string) =>
  [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1]!).filter((id) => id.startsWith(prefix));

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: {}, showSupportNotice: false });
});

describe('a user row', () => {
  const rowActions = (abilities: Partial<UserAbilities>) =>
    testIds(
      render(createElement(UserRowActions, { user: user(abilities), onOpenDetail: noop, onAdjustCredits: noop })),
      'user-',
    );

  it('offers only the details when the server allows nothing', () => {
    expect(rowActions({})).toEqual(['user-detail-7']);
  });

  it('offers each action exactly when its ability is true', () => {
    expect(rowActions({ status: true })).toEqual(['user-detail-7', 'user-toggle-status-7']);
    expect(rowActions({ delete: true })).toEqual(['user-detail-7', 'user-retire-7']);
    expect(rowActions({ 'credits.adjust': true })).toEqual(['user-detail-7', 'user-credits-7']);
    expect(rowActions({ status: true, delete: true, 'credits.adjust': true })).toEqual([
      'user-detail-7',
      'user-credits-7',
      'user-toggle-status-7',
      'user-retire-7',
    ]);
  });
});

describe('a user’s detail tabs', () => {
  const shown = (abilities: Partial<UserAbilities>) => {
    const html = render(
      createElement(UserDetailTabs, { user: user(abilities), groupOptions: [], onAdjustCredits: noop }),
    );
    return { tabs: testIds(html, 'user-tab-'), form: testIds(html, 'user-edit-') };
  };

  it('shows no edit form and no password tab without those abilities', () => {
    expect(shown({})).toEqual({ tabs: ['user-tab-basic'], form: [] });
  });

  it('shows the credits and password tabs as their abilities say', () => {
    expect(shown({ 'credits.read': true }).tabs).toEqual(['user-tab-basic', 'user-tab-credits']);
    expect(shown({ password: true }).tabs).toEqual(['user-tab-basic', 'user-tab-password']);
  });

  it('shows the edit form, with group, role and permissions only when each is allowed', () => {
    const plain = shown({ update: true }).form;
    expect(plain).toContain('user-edit-form');
    expect(plain).not.toContain('user-edit-group');
    expect(plain).not.toContain('user-edit-role');
    expect(plain).not.toContain('user-edit-permissions');
    const all = shown({ update: true, move: true, role: true, permissions: true }).form;
    expect(all).toEqual(expect.arrayContaining(['user-edit-group', 'user-edit-role', 'user-edit-permissions']));
  });
});

describe('a group row', () => {
  const rowActions = (abilities: Partial<GroupAbilities>) =>
    testIds(
      render(
        createElement(GroupRowActions, { group: group(abilities), onOpenDetail: noop, onEdit: noop, onTransfer: noop }),
      ),
      'group-',
    );

  it('offers transfers, editing and deleting only as the group’s abilities say', () => {
    expect(rowActions({})).toEqual(['group-detail-2']);
    expect(rowActions({ 'pool.transfer': true })).toEqual(['group-detail-2', 'group-transfer-2']);
    expect(rowActions({ manage: true })).toEqual(['group-detail-2', 'group-edit-2', 'group-delete-2']);
  });
});

describe('a page guard', () => {
  /** A render outside the browser reads the store's initial state, so the session is written there. */
  const signIn = (session: Partial<ReturnType<typeof useAuthStore.getState>>) =>
    Object.assign(useAuthStore.getInitialState(), session);
  const guarded = (abilities: SessionAbilities | null) => {
    signIn({ abilities });
    return render(
      createElement(AccessGuard, { page: 'users', children: createElement('p', { 'data-testid': 'inside' }) }),
    );
  };

  it('opens the page only when the session’s abilities open it, whatever the role', () => {
    signIn({ user: { ...user({}), role: 'super_admin' } });
    expect(testIds(guarded(NO_ABILITIES), '')).toContain('no-permission');
    expect(testIds(guarded(null), '')).toContain('no-permission');
    signIn({ user: { ...user({}), role: 'user' } });
    const open = { ...NO_ABILITIES, pages: { ...NO_ABILITIES.pages, users: true } };
    expect(testIds(guarded(open), '')).toEqual(['inside']);
  });
});
