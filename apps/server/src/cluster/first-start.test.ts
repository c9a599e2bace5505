import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../app.js';
import { buildConfig } from '../config.js';
import { TEST_DATABASE_URL } from '../../test/test-app.js';
import { type ThrowawayDatabase, createThrowawayDatabase } from '../../test/throwaway-database.js';

/*
 * Several instances started at once on an empty database (a new cluster whose replicas
 * come up together) migrate once and create one super administrator between them.
 * Migrations run under the migrator's PostgreSQL advisory lock; the administrator is
 * created only by a start that finds no user, and a concurrent second one collides with
 * the first on the unique user name and gives way.
 */
describe.skipIf(!TEST_DATABASE_URL)('instances starting together on an empty PostgreSQL database', () => {
  let dataDir: string;
  const built: BuiltApp[] = [];
  let database: ThrowawayDatabase;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-first-start-'));
    database = await createThrowawayDatabase();
  });
  afterAll(async () => {
    await Promise.allSettled(built.map((b) => b.app.close()));
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrate once and create exactly one super administrator', async () => {
    // Each instance names another administrator: only the start that finds no user may create one.
    const starts = [1, 2, 3].map((i) =>
      buildApp({
        config: buildConfig({
          dataDir,
          databaseUrl: database.url,
          appSecret: 'first-start-shared-secret',
          adminEmail: `admin${i}@test.local`,
          adminPassword: 'Admin#Pass123',
          logLevel: 'silent',
        }),
      }),
    );
    const results = await Promise.allSettled(starts);
    for (const r of results) if (r.status === 'fulfilled') built.push(r.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual([
      'started',
      'started',
      'started',
    ]);

    const creators = built.filter((b) => b.bootstrapResult.createdAdmin);
    expect(creators).toHaveLength(1);
    const db = built[0]!.database.db;
    const users = await db.selectFrom('users').select(['email', 'role']).execute();
    expect(users).toEqual([{ email: creators[0]!.bootstrapResult.createdAdmin!.email, role: 'super_admin' }]);
    expect(await db.selectFrom('user_groups').select('id').execute()).toEqual([{ id: 1 }]);

    // Every migration recorded once (the name is the key: a second run would have failed on it).
    const migrations = await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    const names = (migrations as { name: string }[]).map((m) => m.name);
    expect(names).toEqual([...names].sort());
    expect(names.length).toBeGreaterThanOrEqual(11);
  });
});
