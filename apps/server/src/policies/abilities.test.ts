import {
  ADMIN_CALLS,
  type AdminUser,
  type AdminUserDetail,
  type CallSpec,
  type Group,
  type GroupAbility,
  type SessionData,
  type UserAbility,
  callPath,
} from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminCreatedUser,
  createGroupAsAdmin,
  createUserAsAdmin,
  poolTransfer,
} from '../../test/admin-helpers.js';
import { type ApiResponse, type TestApp, createTestApp } from '../../test/test-app.js';

/*
 * The abilities the server sends are its word on what will succeed: for a few kinds of
 * actor, every ability shown on a user, a group or the session is true exactly when the
 * call it stands for is let through, and false exactly when it is refused.
 */

const PASSWORD = 'secret123';
const ok = (res: ApiResponse<unknown>) => res.status >= 200 && res.status < 300;

interface Actor {
  name: string;
  user: { id: number; email: string };
  password: string;
  token: string;
}

describe('abilities', () => {
  let t: TestApp;
  let root: Actor;
  let groupG: Group;
  let groupH: Group;
  const actors: Actor[] = [];

  const rootToken = () => root.token;
  const signIn = async (a: Actor) => {
    a.token = (await t.tokensFor(a.user.email, a.password)).accessToken;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const session = await t.loginAsAdmin();
    root = { name: 'super administrator', user: session.user, password: t.admin.password, token: session.accessToken };
    groupG = await createGroupAsAdmin(t, root.token);
    groupH = await createGroupAsAdmin(t, root.token);
    // Pools to move credits from, the super administrator's own group's too.
    for (const id of [groupG.id, groupH.id, session.user.group_id!]) {
      const res = await t.put(`/api/admin/user-groups/${id}/credits-pool`, { credits_pool: 1_000_000 }, root.token);
      expect(res.status, res.text).toBe(200);
    }
    const groupAdmin = await createUserAsAdmin(t, root.token, { role: 'admin', group_id: groupG.id });
    const granted = await createUserAsAdmin(t, root.token, { role: 'user', group_id: groupG.id });
    const grant = await t.put(
      `/api/admin/users/${granted.id}`,
      { extra_permissions: ['user.manage.group'] },
      root.token,
    );
    expect(grant.status, grant.text).toBe(200);
    actors.push(root);
    for (const [name, u] of [
      ['group administrator', groupAdmin],
      ['plain user granted user.manage.group', granted],
    ] as const) {
      const a = { name, user: u, password: PASSWORD, token: '' };
      await signIn(a);
      actors.push(a);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  /** Accounts of every kind an actor meets, made fresh for that actor (some checks retire them). */
  async function targetsFor(actor: Actor): Promise<{ label: string; id: number }[]> {
    const make = (overrides: Record<string, unknown>) => createUserAsAdmin(t, rootToken(), overrides);
    const made: [string, AdminCreatedUser][] = [
      ['plain user of G', await make({ group_id: groupG.id })],
      ['administrator of G', await make({ group_id: groupG.id, role: 'admin' })],
      ['super administrator in G', await make({ group_id: groupG.id, role: 'super_admin' })],
      ['plain user of H', await make({ group_id: groupH.id })],
    ];
    return [...made.map(([label, u]) => ({ label, id: u.id })), { label: 'themselves', id: actor.user.id }];
  }

  /** Each user ability's call, made by `actor` on `target`; a change let through is undone by the super administrator. */
  function userCalls(actor: Actor, target: AdminUserDetail): Record<UserAbility, () => Promise<boolean>> {
    const url = `/api/admin/users/${target.id}`;
    const as = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
      t.request(method, path, { token: actor.token, ...(body !== undefined ? { body } : {}) });
    const thenUndo = async (res: ApiResponse<unknown>, undo: Record<string, unknown>) => {
      if (ok(res)) expect((await t.put(url, undo, rootToken())).status).toBe(200);
      return ok(res);
    };
    const otherGroup = target.group_id === groupG.id ? groupH.id : groupG.id;
    return {
      update: async () => ok(await as('PUT', url, { remark: 'abilities' })),
      status: async () => ok(await as('PUT', `${url}/status`, { status: 'active' })),
      role: async () =>
        thenUndo(await as('PUT', url, { role: target.role === 'user' ? 'admin' : 'user' }), { role: target.role }),
      move: async () => thenUndo(await as('PUT', url, { group_id: otherGroup }), { group_id: target.group_id }),
      permissions: async () =>
        thenUndo(await as('PUT', url, { extra_permissions: [...target.extra_permissions, 'model.manage'] }), {
          extra_permissions: target.extra_permissions,
        }),
      'credits.read': async () => ok(await as('GET', `${url}/credits/history`)),
      'credits.adjust': async () =>
        ok(await as('POST', `${url}/credits`, { operation: 'add', amount: 1, reason: 'abilities' })),
      'pool.transfer': async () =>
        ok(await poolTransfer(t, actor.token, target.group_id!, { user_id: target.id, amount: 1 })),
      'data.export': async () => ok(await as('GET', `${url}/export?reason=abilities`)),
      // The two that end sessions or the account come last.
      password: async () => {
        const done = ok(
          await as('PUT', `${url}/password`, { newPassword: target.id === actor.user.id ? actor.password : PASSWORD }),
        );
        if (done && target.id === actor.user.id) await signIn(actor);
        return done;
      },
      delete: async () => ok(await as('DELETE', url)),
      // Erasure also works on a retired account, so it may follow the retirement.
      erase: async () => ok(await as('POST', `${url}/erase`, { reason: 'abilities' })),
    };
  }

  it('shows on every user row exactly the actions the server then allows', async () => {
    for (const actor of actors) {
      for (const { label, id } of await targetsFor(actor)) {
        const detail = await t.get<AdminUserDetail>(`/api/admin/users/${id}`, actor.token);
        // A row the actor cannot see carries no abilities they could read.
        if (detail.status !== 200) continue;
        const target = detail.body.data;
        // The list shows the same abilities as the detail.
        const listed = await t.get<AdminUser[]>(`/api/admin/users?search=${target.username}`, actor.token);
        expect(listed.body.data.find((u) => u.id === id)?.abilities, `${actor.name} → ${label}`).toEqual(
          target.abilities,
        );
        for (const [ability, run] of Object.entries(userCalls(actor, target)) as [
          UserAbility,
          () => Promise<boolean>,
        ][])
          expect(await run(), `${actor.name} → ${label}: ${ability}`).toBe(target.abilities[ability]);
      }
    }
    // Every ability of every row is tried for real, erasure included: long under a loaded machine.
  }, 120_000);

  it('shows on every group exactly the actions the server then allows', async () => {
    for (const actor of actors) {
      for (const group of [groupG, groupH]) {
        const res = await t.get<Group>(`/api/admin/user-groups/${group.id}`, actor.token);
        if (res.status !== 200) continue;
        const { abilities } = res.body.data;
        const member = await createUserAsAdmin(t, rootToken(), { group_id: group.id });
        const url = `/api/admin/user-groups/${group.id}`;
        const calls: Record<GroupAbility, () => Promise<boolean>> = {
          manage: async () => ok(await t.put(url, { description: 'abilities' }, actor.token)),
          'pool.transfer': async () =>
            ok(await poolTransfer(t, actor.token, group.id, { user_id: member.id, amount: 1 })),
          announcement: async () => ok(await t.put(`${url}/announcement`, { content: 'abilities' }, actor.token)),
          permissions: async () => {
            const granted = ok(await t.put(url, { permissions: ['api.keys'] }, actor.token));
            if (granted) await t.put(url, { permissions: res.body.data.permissions }, rootToken());
            return granted;
          },
        };
        for (const [ability, run] of Object.entries(calls) as [GroupAbility, () => Promise<boolean>][])
          expect(await run(), `${actor.name} → group ${group.name}: ${ability}`).toBe(abilities[ability]);
      }
    }
  });

  it('tells the signed-in user which pages and settings they may open and change', async () => {
    for (const actor of actors) {
      const me = await t.get<SessionData>('/api/auth/me', actor.token);
      const { pages, settings } = me.body.data.abilities;
      const opens = async (path: string) => ok(await t.get(path, actor.token));
      // A change the route lets through is refused only for its (here deliberately) bad body.
      const changes = async (method: 'POST' | 'PUT', path: string) => {
        const res = await t.request(method, path, { token: actor.token, body: [] });
        return res.status !== 403;
      };
      const expected = {
        chat: await opens('/api/chat/conversations'),
        users: await opens('/api/admin/users'),
        groups: await opens('/api/admin/user-groups'),
        audit: await opens('/api/admin/audit-logs'),
        stats: await opens('/api/admin/stats/overview'),
        settings: await opens('/api/admin/settings'),
        identity: await opens('/api/admin/identity-providers'),
        apiKeys: await opens('/api/admin/api-keys'),
        legalHolds: await opens('/api/admin/legal-holds'),
      };
      expect(pages, actor.name).toEqual(expected);
      const part = async (read: string, method: 'POST' | 'PUT', write: string) =>
        (await changes(method, write)) ? 'manage' : (await opens(read)) ? 'read' : 'none';
      expect(settings, actor.name).toEqual({
        settings: await part('/api/admin/settings', 'PUT', '/api/admin/settings'),
        models: await part('/api/admin/models', 'POST', '/api/admin/models'),
        modules: await part('/api/admin/modules', 'POST', '/api/admin/modules'),
      });
    }
  });

  it('gives the reach of every admin action as the routes enforce it', async () => {
    const calls = Object.entries(ADMIN_CALLS) as [string, CallSpec][];
    for (const actor of actors) {
      const { actions } = (await t.get<SessionData>('/api/auth/me', actor.token)).body.data.abilities;
      for (const [name, spec] of calls) {
        const access = spec.access;
        if (access === 'public' || access === 'optional' || access === 'signedIn') continue;
        // An id nobody holds and a body no schema accepts: nothing changes, only access is learnt.
        const ids = Object.fromEntries([...spec.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, 999_999]));
        const res = await t.request(spec.method, `/api${callPath(spec.path, ids)}`, {
          token: actor.token,
          ...(spec.body ? { body: [] } : {}),
        });
        const refused = res.status === 403 && res.body.error === 'FORBIDDEN';
        expect(refused, `${actor.name} ${name} (${access}: ${actions[access]})`).toBe(actions[access] === 'none');
      }
    }
  });
});
