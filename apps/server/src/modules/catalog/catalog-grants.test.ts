import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditHeadSeq, auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { type ApiResponse, TEST_DATABASE_URL, type TestApp, createTestApp, unique } from '../../../test/test-app.js';

/** The app connects under a name of its own, so the test can tell its backends apart on a shared server. */
function named(url: string, applicationName: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}application_name=${applicationName}`;
}

interface CatalogCase {
  kind: 'model' | 'module';
  create(t: TestApp, token: string, groupIds: number[]): Promise<number>;
  /** Replaces the item's groups through the administration's own call. */
  grant(t: TestApp, token: string, id: number, groupIds: number[]): Promise<ApiResponse>;
  state(t: TestApp, id: number): Promise<{ is_active: number; group_ids: number[] }>;
}

const created = (res: ApiResponse<{ id: number }>) => {
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data.id;
};

const CASES: CatalogCase[] = [
  {
    kind: 'model',
    create: async (t, token, group_ids) =>
      created(await t.post('/api/admin/models', { name: `m-${unique()}`, provider: 'openai', group_ids }, token)),
    grant: (t, token, id, group_ids) =>
      t.request('PUT', `/api/admin/models/${id}/groups`, { body: { group_ids }, token, lang: 'en-US' }),
    state: async (t, id) => ({
      is_active: (await t.db.selectFrom('ai_models').select('is_active').where('id', '=', id).executeTakeFirstOrThrow())
        .is_active,
      group_ids: (await t.db.selectFrom('ai_model_groups').select('group_id').where('model_id', '=', id).execute()).map(
        (r) => r.group_id,
      ),
    }),
  },
  {
    kind: 'module',
    create: async (t, token, group_ids) =>
      created(
        await t.post(
          '/api/admin/modules',
          { name: `m-${unique()}`, display_name: 'M', module_url: 'https://app.example.com', group_ids },
          token,
        ),
      ),
    grant: (t, token, id, group_ids) =>
      t.request('PUT', `/api/admin/modules/${id}`, { body: { group_ids }, token, lang: 'en-US' }),
    state: async (t, id) => ({
      is_active: (await t.db.selectFrom('modules').select('is_active').where('id', '=', id).executeTakeFirstOrThrow())
        .is_active,
      group_ids: (await t.db.selectFrom('module_groups').select('group_id').where('module_id', '=', id).execute()).map(
        (r) => r.group_id,
      ),
    }),
  },
];

describe('the group ids of models and modules', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses malformed group ids of models and modules alike, with translated messages', async () => {
    const items = await Promise.all(CASES.map(async (c) => ({ c, id: await c.create(t, token, []) })));
    for (const group_ids of ['1', null, [0], ['a'], [1.5], Array.from({ length: 1001 }, (_, i) => i + 1)]) {
      const answers = await Promise.all(items.map(({ c, id }) => c.grant(t, token, id, group_ids as number[])));
      const label = JSON.stringify(group_ids).slice(0, 20);
      for (const res of answers) {
        expect(res.status, label).toBe(400);
        expect(res.body.error, label).toBe('VALIDATION_FAILED');
      }
      const [model, module] = answers.map((res) => res.body.data.errors);
      expect(module, label).toEqual(model);
    }
    expect(await Promise.all(items.map(({ c, id }) => c.state(t, id)))).toEqual([
      { is_active: 1, group_ids: [] },
      { is_active: 1, group_ids: [] },
    ]);
  });
});

/*
 * A group's deletion switches off the models and modules only that group could use (they
 * would otherwise be open to every group once its rows cascade away). A grant to that
 * group committed while the deletion runs must not slip past that decision. SQLite runs
 * one writer at a time, so only PostgreSQL can interleave the two.
 */
describe.skipIf(!TEST_DATABASE_URL)('granting a catalog item to a group while the group is deleted', () => {
  const appName = `aip-grants-${crypto.randomBytes(6).toString('hex')}`;
  let t: TestApp;
  let token: string;
  let observer: pg.Client;

  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: (url) => named(url, appName) });
    token = (await t.loginAsAdmin()).accessToken;
    observer = new pg.Client({ connectionString: named(TEST_DATABASE_URL as string, `${appName}-observer`) });
    await observer.connect();
  });
  afterAll(async () => {
    await observer?.end();
    await t?.close();
  });

  /** Resolves once `count` of the app's connections wait for a lock. */
  const lockWaits = (count: number) =>
    vi.waitFor(
      async () => {
        const { rows } = await observer.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
          [appName],
        );
        if (rows[0]?.n !== count) throw new Error(`${rows[0]?.n ?? 0} of ${count} requests wait`);
      },
      { timeout: 5000, interval: 20 },
    );

  /**
   * Runs `first`, lets it do its work up to its audit row, then starts `second` and waits
   * until it is blocked too (or finished) before letting both commit. Holding the audit
   * chain's head keeps `first`'s transaction open after its writes.
   */
  async function interleave<A, B>(first: () => Promise<A>, second: () => Promise<B>, secondBlocks: boolean) {
    const locker = new pg.Client({ connectionString: named(t.storage.databaseUrl as string, `${appName}-locker`) });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select * from audit_chain_head where id = 1 for update');
      const a = first();
      await lockWaits(1);
      const b = second();
      if (secondBlocks) await lockWaits(2);
      await locker.query('rollback');
      return await Promise.all([a, b]);
    } finally {
      await locker.end();
    }
  }

  for (const c of CASES) {
    it(`a ${c.kind} granted only to a group being deleted ends switched off, never open to every group`, async () => {
      const kept = await createGroupAsAdmin(t, token);
      const doomed = await createGroupAsAdmin(t, token);
      const id = await c.create(t, token, [kept.id]);
      const from = await auditHeadSeq(t);
      // The grant has written its rows when the deletion decides which items lose their last group.
      const [granted, deleted] = await interleave(
        () => c.grant(t, token, id, [doomed.id]),
        () => t.request('DELETE', `/api/admin/user-groups/${doomed.id}`, { token }),
        true,
      );
      expect(granted.status).toBe(200);
      expect(deleted.status).toBe(200);
      expect(await c.state(t, id)).toEqual({ is_active: 0, group_ids: [] });
      const rows = await auditRowsAfter(t, from);
      expect(rows.map((r) => [r.action, r.target_type, r.target_id])).toEqual([
        [`${c.kind}.${c.kind === 'model' ? 'groups' : 'update'}`, c.kind, String(id)],
        ['group.delete', 'group', String(doomed.id)],
        [`${c.kind}.update`, c.kind, String(id)],
      ]);
    });

    it(`a ${c.kind} granted to a group whose deletion is under way is refused as bad input`, async () => {
      const kept = await createGroupAsAdmin(t, token);
      const doomed = await createGroupAsAdmin(t, token);
      const id = await c.create(t, token, [kept.id]);
      const [deleted, granted] = await interleave(
        () => t.request('DELETE', `/api/admin/user-groups/${doomed.id}`, { token }),
        () => c.grant(t, token, id, [doomed.id]),
        true,
      );
      expect(deleted.status).toBe(200);
      expect(granted.status).toBe(400);
      expect(granted.body.error).toBe('VALIDATION_FAILED');
      expect(granted.body.data.errors).toEqual(['The group does not exist']);
      expect(await c.state(t, id)).toEqual({ is_active: 1, group_ids: [kept.id] });
    });
  }
});
