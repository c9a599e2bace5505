import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdminModule, UserModule } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSession,
  auditHeadSeq,
  auditRowsAfter,
  createGroupAsAdmin,
  createUserAsAdmin,
} from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { MemoryKvStore } from '../../lib/data/kv-store.js';
import { translate } from '../../lib/runtime/i18n.js';
import { ModuleHealthMonitor } from './module-health-monitor.js';
import { ModulesRepo } from './modules.repo.js';

/** A local web app to probe: 200 on /ok, a redirect on /login, 500 on /broken; counts its requests. */
async function startProbeTarget() {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits += 1;
    if (req.url === '/login') res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    else if (req.url === '/broken') res.writeHead(500).end('broken');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    get hits() {
      return hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Nothing listens on the discard port: the connection is refused at once. */
const DEAD_URL = 'http://127.0.0.1:9/';

describe('admin modules', () => {
  let t: TestApp;
  let token: string;
  let target: Awaited<ReturnType<typeof startProbeTarget>>;

  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
    target = await startProbeTarget();
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  const url = (id: number, rest = '') => `/api/admin/modules/${id}${rest}`;
  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await t.post<AdminModule>(
      '/api/admin/modules',
      { name: `m-${unique()}`, display_name: 'Module', module_url: `${target.base}/ok`, ...overrides },
      token,
    );
    if (res.status !== 201) throw new Error(`module create failed: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const list = async (as = token) => {
    const res = await t.get<AdminModule[]>('/api/admin/modules', as);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const menuOf = async (as: string) => {
    const res = await t.get<UserModule[]>('/api/admin/modules/user-modules', as);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const toggle = (id: number, as = token) =>
    t.app
      .inject({ method: 'PATCH', url: url(id, '/toggle-status'), headers: { authorization: `Bearer ${as}` } })
      .then((r) => ({ status: r.statusCode, body: JSON.parse(r.body) as { data: AdminModule; error?: string } }));
  const checkHealth = (id: number, as = token) => t.post<AdminModule>(url(id, '/check-health'), undefined, as);

  describe('CRUD', () => {
    it('creates a module with defaults, lists, edits and deletes it', async () => {
      const name = `crm-${unique()}`;
      const res = await t.post<AdminModule>(
        '/api/admin/modules',
        { name, display_name: 'CRM', module_url: 'https://crm.example.com/app' },
        token,
      );
      expect(res.status, res.text).toBe(201);
      const m = res.body.data;
      expect(m).toMatchObject({
        name,
        display_name: 'CRM',
        description: '',
        menu_icon: '',
        module_url: 'https://crm.example.com/app',
        open_mode: 'iframe',
        is_active: true,
        sort_order: 0,
        group_ids: [],
        auth_mode: 'none',
        health_check_url: null,
        health_status: 'unknown',
        health_checked_at: null,
        health_latency_ms: null,
      });
      expect((await list()).find((x) => x.id === m.id)).toEqual(m);

      const edited = await t.put<AdminModule>(
        url(m.id),
        {
          display_name: 'CRM 2',
          description: 'customers',
          menu_icon: 'TeamOutlined',
          open_mode: 'new_tab',
          sort_order: 5,
          auth_mode: 'signed_token',
          health_check_url: 'https://crm.example.com/health',
        },
        token,
      );
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body.data).toMatchObject({
        name,
        display_name: 'CRM 2',
        description: 'customers',
        menu_icon: 'TeamOutlined',
        open_mode: 'new_tab',
        sort_order: 5,
        auth_mode: 'signed_token',
        health_check_url: 'https://crm.example.com/health',
      });
      // An empty edit changes nothing.
      const same = await t.put<AdminModule>(url(m.id), {}, token);
      expect(same.status).toBe(200);
      expect(same.body.data).toEqual(edited.body.data);
      // The icon taken away: the menu draws the module's letter icon again.
      const lettered = await t.put<AdminModule>(url(m.id), { menu_icon: '' }, token);
      expect(lettered.body.data.menu_icon).toBe('');

      const removed = await t.request<{ id: number }>('DELETE', url(m.id), { token });
      expect(removed.status).toBe(200);
      expect(removed.body.data).toEqual({ id: m.id });
      expect((await list()).some((x) => x.id === m.id)).toBe(false);
      expect((await t.request('DELETE', url(m.id), { token })).status).toBe(404);
    });

    it('answers 404 for a module that does not exist', async () => {
      expect((await t.put(url(999_999), { description: 'x' }, token)).status).toBe(404);
      expect((await t.request('DELETE', url(999_999), { token })).status).toBe(404);
      expect((await toggle(999_999)).status).toBe(404);
      expect((await checkHealth(999_999)).status).toBe(404);
    });

    it('refuses a duplicate name on create and on rename with 409 CONFLICT_MODULE_NAME', async () => {
      const a = await create();
      const b = await create();
      const again = await t.post(
        '/api/admin/modules',
        { name: a.name, display_name: 'x', module_url: 'https://x.example' },
        token,
      );
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('CONFLICT_MODULE_NAME');
      const rename = await t.put(url(b.id), { name: a.name }, token);
      expect(rename.status).toBe(409);
      expect(rename.body.error).toBe('CONFLICT_MODULE_NAME');
      expect((await list()).find((x) => x.id === b.id)?.name).toBe(b.name);
      // Keeping its own name is no conflict.
      expect((await t.put(url(a.id), { name: a.name, description: 'same' }, token)).status).toBe(200);
    });

    it('accepts only http(s) addresses, with a translated message', async () => {
      for (const bad of [
        'javascript:alert(1)',
        'data:text/html,<b>x</b>',
        'ftp://files.example.com/',
        'not a url',
        '',
      ]) {
        for (const lang of ['en-US', 'zh-CN']) {
          const body = { name: `u-${unique()}`, display_name: 'x', module_url: bad };
          const res = await t.post('/api/admin/modules', body, token, lang);
          expect(res.status, `${bad} ${lang}`).toBe(400);
          expect(res.body.error).toBe('VALIDATION_FAILED');
          expect(res.body.data.errors).toContain(translate(lang as 'en-US', 'validation.url.invalid'));
        }
        const m = await create();
        const health = await t.put(url(m.id), { health_check_url: bad }, token, 'en-US');
        expect(health.status, bad).toBe(400);
        expect(health.body.data.errors).toContain(translate('en-US', 'validation.url.invalid'));
        const moduleUrl = await t.put(url(m.id), { module_url: bad }, token, 'en-US');
        expect(moduleUrl.status, bad).toBe(400);
      }
    });

    it('refuses unknown groups with validation.group.notFound and nothing is written', async () => {
      const before = (await list()).length;
      const res = await t.post(
        '/api/admin/modules',
        { name: `g-${unique()}`, display_name: 'x', module_url: 'https://x.example', group_ids: [1, 2_000_000] },
        token,
        'en-US',
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      expect(res.body.data.errors).toEqual([translate('en-US', 'validation.group.notFound')]);
      expect((await list()).length).toBe(before);
      const m = await create({ group_ids: [1] });
      const edit = await t.put(url(m.id), { group_ids: [2_000_000] }, token, 'zh-CN');
      expect(edit.status).toBe(400);
      expect(edit.body.data.errors).toEqual([translate('zh-CN', 'validation.group.notFound')]);
      expect((await list()).find((x) => x.id === m.id)?.group_ids).toEqual([1]);
    });

    it('stores group ids once each, in order, and an empty list opens the module to everyone', async () => {
      const g = await createGroupAsAdmin(t, token);
      const m = await create({ group_ids: [g.id, 1, g.id] });
      expect(m.group_ids).toEqual([1, g.id]);
      const open = await t.put<AdminModule>(url(m.id), { group_ids: [] }, token);
      expect(open.body.data.group_ids).toEqual([]);
    });
  });

  it('toggles a module on and off; the menu shows only active ones', async () => {
    const user = (await t.signUp()).session.accessToken;
    const m = await create();
    expect((await menuOf(user)).map((x) => x.id)).toContain(m.id);
    const off = await toggle(m.id);
    expect(off.status).toBe(200);
    expect(off.body.data.is_active).toBe(false);
    expect((await menuOf(user)).map((x) => x.id)).not.toContain(m.id);
    const on = await toggle(m.id);
    expect(on.body.data.is_active).toBe(true);
    expect((await menuOf(user)).map((x) => x.id)).toContain(m.id);
  });

  it('shows a module only to the groups it names, in sort order, in the menu shape', async () => {
    const ga = await createGroupAsAdmin(t, token);
    const gb = await createGroupAsAdmin(t, token);
    const inA = await createUserAsAdmin(t, token, { group_id: ga.id });
    const inB = await createUserAsAdmin(t, token, { group_id: gb.id });
    const a = (await t.tokensFor(inA.email, inA.password)).accessToken;
    const b = (await t.tokensFor(inB.email, inB.password)).accessToken;
    const everyone = await create({ sort_order: 3 });
    const onlyA = await create({ sort_order: 1, group_ids: [ga.id] });
    const hidden = await create({ sort_order: 2, group_ids: [ga.id], is_active: false });

    const menuA = await menuOf(a);
    const idsA = menuA.map((x) => x.id);
    expect(idsA).toContain(everyone.id);
    expect(idsA).toContain(onlyA.id);
    expect(idsA).not.toContain(hidden.id);
    expect(idsA.indexOf(onlyA.id)).toBeLessThan(idsA.indexOf(everyone.id));
    expect(menuA.find((x) => x.id === onlyA.id)).toEqual({
      id: onlyA.id,
      name: onlyA.name,
      display_name: onlyA.display_name,
      menu_icon: onlyA.menu_icon,
      open_mode: onlyA.open_mode,
      module_url: onlyA.module_url,
      is_active: true,
    });

    const idsB = (await menuOf(b)).map((x) => x.id);
    expect(idsB).toContain(everyone.id);
    expect(idsB).not.toContain(onlyA.id);
    // Opening it to group B as well.
    await t.put(url(onlyA.id), { group_ids: [ga.id, gb.id] }, token);
    expect((await menuOf(b)).map((x) => x.id)).toContain(onlyA.id);
    expect((await t.get('/api/admin/modules/user-modules')).status).toBe(401);
  });

  describe('health', () => {
    it('reports up for 2xx and 3xx answers, down for others and for a dead port, and stores the result', async () => {
      const m = await create({ module_url: `${target.base}/ok` });
      const up = await checkHealth(m.id);
      expect(up.status, up.text).toBe(200);
      expect(up.body.data).toMatchObject({ id: m.id, health_status: 'up' });
      expect(up.body.data.health_latency_ms).toEqual(expect.any(Number));
      expect(up.body.data.health_checked_at).toEqual(expect.any(String));
      expect((await list()).find((x) => x.id === m.id)).toEqual(up.body.data);

      // A redirect (e.g. to a login page) is up; it is not followed to the dead address.
      await t.put(url(m.id), { health_check_url: `${target.base}/login` }, token);
      expect((await checkHealth(m.id)).body.data.health_status).toBe('up');

      await t.put(url(m.id), { health_check_url: `${target.base}/broken` }, token);
      expect((await checkHealth(m.id)).body.data.health_status).toBe('down');

      const dead = await create({ module_url: DEAD_URL });
      const down = await checkHealth(dead.id);
      expect(down.status).toBe(200);
      expect(down.body.data).toMatchObject({ health_status: 'down' });
      expect(down.body.data.health_checked_at).toEqual(expect.any(String));
    });

    it('forgets the stored health when the probed address changes', async () => {
      const m = await create();
      expect((await checkHealth(m.id)).body.data.health_status).toBe('up');
      const kept = await t.put<AdminModule>(url(m.id), { description: 'unrelated' }, token);
      expect(kept.body.data.health_status).toBe('up');
      const moved = await t.put<AdminModule>(url(m.id), { module_url: DEAD_URL }, token);
      expect(moved.body.data).toMatchObject({
        health_status: 'unknown',
        health_latency_ms: null,
        health_checked_at: null,
      });
    });

    it('checks every active module in the background; instances sharing the store run one round', async () => {
      const repo = new ModulesRepo(t.db);
      const up = await create({ module_url: `${target.base}/ok` });
      const down = await create({ module_url: DEAD_URL });
      const off = await create({ module_url: `${target.base}/ok`, is_active: false });
      const kv = new MemoryKvStore();
      const log = t.app.log;
      const first = new ModuleHealthMonitor({ repo, kv, clock: t.clock, log }, { intervalMs: 30 });
      const second = new ModuleHealthMonitor({ repo, kv, clock: t.clock, log }, { intervalMs: 30 });

      // Two instances firing together: one claims the round, the other skips it.
      const hitsBefore = target.hits;
      const activeOnTarget = (await repo.listActive()).filter((x) =>
        (x.health_check_url ?? x.module_url).startsWith(target.base),
      );
      await Promise.all([first.tick(), second.tick()]);
      expect(target.hits - hitsBefore).toBe(activeOnTarget.length);

      const byId = async (id: number) => (await repo.findById(id))!;
      expect((await byId(up.id)).health_status).toBe('up');
      expect((await byId(down.id)).health_status).toBe('down');
      expect((await byId(off.id)).health_status).toBe('unknown');
      await first.stop();
      await second.stop();

      // On its own timer, a monitor keeps checking until stopped.
      await t.put(url(up.id), { health_check_url: `${target.base}/broken` }, token);
      const timed = new ModuleHealthMonitor({ repo, kv: new MemoryKvStore(), clock: t.clock, log }, { intervalMs: 30 });
      timed.start();
      await expect.poll(async () => (await byId(up.id)).health_status, { timeout: 5000 }).toBe('down');
      await timed.stop();
    });
  });

  describe('access', () => {
    it('lets a group administrator read the modules their group sees, and nothing else', async () => {
      const g = await createGroupAsAdmin(t, token);
      const other = await createGroupAsAdmin(t, token);
      const { token: groupAdmin } = await adminSession(t, token, { group_id: g.id });
      const mine = await create({ group_ids: [g.id] });
      const theirs = await create({ group_ids: [other.id] });
      const everyone = await create();

      const ids = (await list(groupAdmin)).map((x) => x.id);
      expect(ids).toContain(mine.id);
      expect(ids).toContain(everyone.id);
      expect(ids).not.toContain(theirs.id);

      const writes = [
        await t.post(
          '/api/admin/modules',
          { name: `x-${unique()}`, display_name: 'x', module_url: 'https://x.example' },
          groupAdmin,
        ),
        await t.put(url(mine.id), { description: 'mine now' }, groupAdmin),
        await t.request('DELETE', url(mine.id), { token: groupAdmin }),
        await toggle(mine.id, groupAdmin),
        await checkHealth(mine.id, groupAdmin),
      ];
      for (const res of writes) {
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('FORBIDDEN');
      }
      expect((await list()).find((x) => x.id === mine.id)).toEqual(mine);
    });

    it('refuses a plain user every admin call, and an administrator granted module.manage may write', async () => {
      const plain = (await t.signUp()).session.accessToken;
      const m = await create();
      expect((await t.get('/api/admin/modules', plain)).status).toBe(403);
      expect((await t.put(url(m.id), { description: 'x' }, plain)).status).toBe(403);
      expect((await toggle(m.id, plain)).status).toBe(403);
      expect((await t.request('DELETE', url(m.id), { token: plain })).status).toBe(403);
      expect((await checkHealth(m.id, plain)).status).toBe(403);
      expect(
        (await t.post('/api/admin/modules', { name: 'x', display_name: 'x', module_url: 'https://x.example' }, plain))
          .status,
      ).toBe(403);

      const { token: manager } = await adminSession(t, token, { extra_permissions: ['module.manage'] });
      expect((await t.put(url(m.id), { description: 'by a manager' }, manager)).status).toBe(200);
      expect((await list(manager)).some((x) => x.id === m.id)).toBe(true);
    });
  });

  it('records every change in the audit log', async () => {
    const seq = await auditHeadSeq(t);
    const m = await create();
    await t.put(url(m.id), { display_name: 'Audited' }, token);
    await toggle(m.id);
    await checkHealth(m.id);
    await t.request('DELETE', url(m.id), { token });
    const rows = (await auditRowsAfter(t, seq)).filter((r) => r.target_type === 'module');
    expect(rows.map((r) => r.action)).toEqual([
      'module.create',
      'module.update',
      'module.toggle',
      'module.health',
      'module.delete',
    ]);
    for (const r of rows) {
      expect(r.target_id).toBe(String(m.id));
      expect(r.actor_username).toBeTruthy();
    }
    expect(rows[0]!.changes.after).toMatchObject({ name: m.name, is_active: true });
    expect(rows[1]!.changes).toEqual({ before: { display_name: 'Module' }, after: { display_name: 'Audited' } });
    expect(rows[2]!.changes).toEqual({ before: { is_active: true }, after: { is_active: false } });
    expect(rows[3]!.changes.after).toMatchObject({ health_status: 'up', url: m.module_url });
    expect(rows[4]!.changes.before).toMatchObject({ name: m.name });
    const verify = await t.get<{ valid: boolean }>('/api/admin/audit-logs/verify', token);
    expect(verify.body.data.valid).toBe(true);
  });
});
