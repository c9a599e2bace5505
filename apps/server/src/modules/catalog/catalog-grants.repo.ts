import { type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import type { CatalogKind } from './catalog-kinds.js';

declare const held: unique symbol;
/** Existing group ids, ascending, held until the transaction ends: the only ids a grant may write. */
export type HeldGroups = readonly number[] & { readonly [held]: true };

/** An item that lost its last group when a group was deleted. */
export interface ClosedGrant {
  id: number;
  wasActive: boolean;
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The visibility rule as a condition on the item of `kind` whose id column is `itemId`
 * (e.g. `m.id`): no grant rows (every group), or a row for `groupId`. Without a group, only
 * items for every group pass. `groupId` is a bound parameter, so reusable queries may use it.
 */
export function grantedTo(kind: CatalogKind, itemId: string, groupId: number | null): RawBuilder<SqlBool> {
  const grants = sql.table(kind.grants);
  const item = sql.ref(`g.${kind.itemColumn}`);
  const anyGrant = sql`exists (select 1 from ${grants} as g where ${item} = ${sql.ref(itemId)})`;
  if (groupId === null) return sql<SqlBool>`not ${anyGrant}`;
  const grant = sql`exists (select 1 from ${grants} as g where ${item} = ${sql.ref(itemId)} and g.group_id = ${groupId})`;
  return sql<SqlBool>`(not ${anyGrant} or ${grant})`;
}

/**
 * The only SQL on which groups a catalog item is granted to, for models and modules alike
 * (the kind names the tables).
 */
export class CatalogGrantsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    readonly kind: CatalogKind,
  ) {}

  /** The kind's grant table as `g`. */
  private grantRows(db: Db) {
    return db.dynamic.table(this.kind.grants).as('g');
  }

  /** The grant row's item column (`g.model_id` or `g.module_id`). */
  private itemOf(db: Db) {
    return db.dynamic.ref(`g.${this.kind.itemColumn}`);
  }

  /** The same, selected as `item_id`. */
  private itemId() {
    return sql<number>`${sql.ref(`g.${this.kind.itemColumn}`)}`.as('item_id');
  }

  async groupIds(itemId: number, db: Db = this.db): Promise<number[]> {
    return (await this.groupIdsOf([itemId], db)).get(itemId) ?? [];
  }

  /** Group ids per item for a whole list, in one query. */
  async groupIdsOf(itemIds: readonly number[], db: Db = this.db): Promise<Map<number, number[]>> {
    const byItem = new Map<number, number[]>();
    if (itemIds.length === 0) return byItem;
    const rows = await db
      .selectFrom(this.grantRows(db))
      .select([this.itemId(), 'g.group_id'])
      .where(this.itemOf(db), 'in', itemIds)
      .orderBy('g.group_id')
      .execute();
    for (const r of rows) byItem.set(r.item_id, [...(byItem.get(r.item_id) ?? []), r.group_id]);
    return byItem;
  }

  /**
   * Which of these groups exist, holding them (FOR SHARE on PostgreSQL) until the
   * transaction ends. A group's deletion locks its row first, so it either waits for a
   * grant holding the group (and then sees the grant) or runs first (and the grant then
   * finds no group). Taken before the item row: groups, then items, in every transaction.
   */
  async hold(ids: readonly number[], db: Db): Promise<{ held: HeldGroups; missing: number[] }> {
    const wanted = [...new Set(ids)].sort((a, b) => a - b);
    if (wanted.length === 0) return { held: wanted as unknown as HeldGroups, missing: [] };
    const q = db.selectFrom('user_groups').select('id').where('id', 'in', wanted).orderBy('id');
    const found = new Set((await (isPostgres(db) ? q.forShare() : q).execute()).map((r) => r.id));
    return { held: wanted as unknown as HeldGroups, missing: wanted.filter((id) => !found.has(id)) };
  }

  /** Replaces the item's grants; an empty list opens it to every group. */
  async replace(itemId: number, groupIds: HeldGroups, db: Db): Promise<void> {
    // Unqualified columns: SQLite's UPDATE and DELETE take an alias but not columns qualified by it.
    await db.deleteFrom(this.grantRows(db)).where(db.dynamic.ref(this.kind.itemColumn), '=', itemId).execute();
    if (groupIds.length === 0) return;
    await sql`insert into ${sql.table(this.kind.grants)} (${sql.ref(this.kind.itemColumn)}, group_id) values ${sql.join(
      groupIds.map((groupId) => sql`(${itemId}, ${groupId})`),
    )}`.execute(db);
  }

  /**
   * Switches off every item whose only group is `groupId`: once the group's rows cascade
   * away it would be open to every group; an administrator decides who gets it next. Call
   * it in the deletion's transaction, after the group row is locked and before it is
   * deleted. Each item is locked first (ascending ids, so two deletions queue up instead
   * of deadlocking) and its groups counted after, so a concurrent change of its groups is
   * either fully before or fully after this decision.
   */
  async closeSoleGrants(groupId: number, now: string, db: Db): Promise<ClosedGrant[]> {
    const items = db.dynamic.table(this.kind.items).as('i');
    const ids = await db
      .selectFrom(this.grantRows(db))
      .select(this.itemId())
      .where('g.group_id', '=', groupId)
      .orderBy(this.itemOf(db))
      .execute();
    const closed: ClosedGrant[] = [];
    for (const { item_id: id } of ids) {
      const row = await db
        .updateTable(items)
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', id)
        .returning(['id', 'is_active'])
        .executeTakeFirst();
      if (!row) continue;
      const others = await db
        .selectFrom(this.grantRows(db))
        .select('g.group_id')
        .where(this.itemOf(db), '=', id)
        .where('g.group_id', '!=', groupId)
        .executeTakeFirst();
      if (others) continue;
      await db.updateTable(items).set({ is_active: 0, updated_at: now }).where('id', '=', id).execute();
      closed.push({ id: row.id, wasActive: row.is_active === 1 });
    }
    return closed;
  }
}
