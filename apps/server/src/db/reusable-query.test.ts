import { Kysely, SqliteDialect } from 'kysely';
import { SQLite } from './sqlite-driver.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reusableQuery, reusableQueryIn } from './reusable-query.js';

interface Db {
  items: { id: number; owner: number; name: string; rank: number };
}

const open = () => {
  const sqlite = new SQLite(':memory:');
  sqlite.exec('create table items (id integer primary key, owner integer, name text, rank integer)');
  const insert = sqlite.prepare('insert into items (owner, name, rank) values (?, ?, ?)');
  for (let i = 1; i <= 6; i++) insert.run(i % 2, `item ${i}`, i);
  return new Kysely<Db>({ dialect: new SqliteDialect({ database: sqlite }) });
};

describe('reusable query', () => {
  let db: Kysely<Db> | undefined;
  afterEach(async () => {
    await db?.destroy();
  });

  it('builds the SQL once and binds each call its own values', async () => {
    const k = open();
    db = k;
    const build = vi.fn((owner: number, limit: number, offset: number) =>
      k
        .selectFrom('items')
        .selectAll()
        .where('owner', '=', owner)
        .where('name', '!=', 'fixed value')
        .orderBy('rank', 'desc')
        .limit(limit)
        .offset(offset),
    );
    const page = reusableQuery(build);
    const direct = (owner: number, limit: number, offset: number) =>
      k.selectFrom('items').selectAll().where('owner', '=', owner).orderBy('rank', 'desc').limit(limit).offset(offset);

    expect(await page(k, 1, 2, 0)).toEqual(await direct(1, 2, 0).execute());
    expect(await page(k, 0, 2, 1)).toEqual(await direct(0, 2, 1).execute());
    expect((await page(k, 0, 10, 0)).map((r) => r.name)).toEqual(['item 6', 'item 4', 'item 2']);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('runs inside a transaction it is given', async () => {
    const k = open();
    db = k;
    const byId = reusableQuery((id: number) => k.selectFrom('items').select('name').where('id', '=', id));
    const seen = await k.transaction().execute(async (trx) => {
      await trx.updateTable('items').set({ name: 'renamed' }).where('id', '=', 3).execute();
      return byId(trx, 3);
    });
    expect(seen).toEqual([{ name: 'renamed' }]);
  });

  it('refuses an argument that would not be a bound parameter', async () => {
    const k = open();
    db = k;
    const unbound = reusableQuery((_owner: number) => k.selectFrom('items').selectAll());
    await expect(unbound(k, 1)).rejects.toThrow(/not a bound parameter/);
  });

  it('builds from the transaction it is handed, once, and sees that transaction', async () => {
    const k = open();
    db = k;
    const build = vi.fn((trx: Kysely<Db>, id: number) => trx.selectFrom('items').select('name').where('id', '=', id));
    const nameOf = reusableQueryIn(build);
    const seen = await k.transaction().execute(async (trx) => {
      await trx.updateTable('items').set({ name: 'renamed' }).where('id', '=', 2).execute();
      return [await nameOf(trx, 2), await nameOf(trx, 5)];
    });
    expect(seen).toEqual([[{ name: 'renamed' }], [{ name: 'item 5' }]]);
    expect(await nameOf(k, 2)).toEqual([{ name: 'renamed' }]);
    expect(build).toHaveBeenCalledTimes(1);
  });
});
