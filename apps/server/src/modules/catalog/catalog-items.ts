import { AppError, InputError } from '../../lib/http/errors.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { diff } from '../audit/redact.js';
import type { Db } from '../../db/types.js';
import type { CatalogGrantsRepo, HeldGroups } from './catalog-grants.repo.js';

/** The rows of one kind of item, as its own repo reads and writes them. */
export interface CatalogItemStore<Row, Patch> {
  findById(id: number, db: Db): Promise<Row | undefined>;
  /** Reads the row and locks it until the transaction ends. */
  lock(id: number, db: Db): Promise<Row | undefined>;
  /** Writes the patch; an empty patch writes nothing. */
  update(id: number, patch: Partial<Patch>, db: Db): Promise<void>;
  /** Deletes the row; its grant rows go with it (ON DELETE CASCADE). */
  delete(id: number, db: Db): Promise<void>;
}

export interface CatalogItemsDeps<Row, Item, Patch> {
  grants: CatalogGrantsRepo;
  store: CatalogItemStore<Row, Patch>;
  tx: AdminTransactions;
  /** The item as the administration sees it. */
  present: (row: Row, groupIds: number[]) => Item;
  /** What the audit log compares before and after a change (configuration, not timestamps). */
  snapshot: (item: Item) => Record<string, unknown>;
}

/**
 * What administering a model or a module has in common: creating, changing and deleting an
 * item together with the groups it is granted to, each in one transaction with its audit
 * row. Group ids are checked and held before the item row is locked — the order a group's
 * deletion takes them in — so a grant never races the deletion of its group.
 */
export class CatalogItems<Row, Item, Patch> {
  constructor(private readonly d: CatalogItemsDeps<Row, Item, Patch>) {}

  private get kind() {
    return this.d.grants.kind;
  }

  /** Distinct, existing group ids in ascending order, held for the transaction; an unknown group is bad input. */
  private async holdGroups(ids: readonly number[], trx: Db): Promise<HeldGroups> {
    const { held, missing } = await this.d.grants.hold(ids, trx);
    if (missing.length > 0) throw new InputError(['validation.group.notFound']);
    return held;
  }

  /** Creates an item granted to `groupIds` (none: every group); `insert` writes its row and answers the id. */
  async create(
    ctx: AdminContext,
    groupIds: readonly number[],
    insert: (trx: Db, now: string) => Promise<number>,
  ): Promise<Item> {
    authorize(ctx.actor, this.kind.manage);
    const { target } = this.kind;
    return this.d.tx.run(ctx, async (trx, now) => {
      const held = await this.holdGroups(groupIds, trx);
      const id = await insert(trx, now);
      await this.d.grants.replace(id, held, trx);
      const result = await this.read(id, trx);
      return {
        result,
        audit: { action: `${target}.create`, targetType: target, targetId: id, after: this.d.snapshot(result) },
      };
    });
  }

  /**
   * One locked, audited change of an item, replacing its groups when `groupIds` is given.
   * The item is stamped (`updated_at`) when the change touches a field or its groups.
   * `notes` go into the audit row's `after`: what a diff of the snapshots cannot say.
   */
  async change(
    ctx: AdminContext,
    id: number,
    action: string,
    groupIds: readonly number[] | undefined,
    patchOf: (row: Row, now: string, notes: Record<string, unknown>) => Partial<Patch>,
  ): Promise<Item> {
    authorize(ctx.actor, this.kind.manage);
    return this.d.tx.run(ctx, async (trx, now) => {
      const held = groupIds === undefined ? undefined : await this.holdGroups(groupIds, trx);
      const row = await this.d.store.lock(id, trx);
      if (!row) throw new AppError('NOT_FOUND');
      const before = this.d.present(row, await this.d.grants.groupIds(id, trx));
      const notes: Record<string, unknown> = {};
      const patch = patchOf(row, now, notes);
      const touched = Object.keys(patch).length > 0 || held !== undefined;
      await this.d.store.update(id, touched ? { ...patch, updated_at: now } : patch, trx);
      if (held !== undefined) await this.d.grants.replace(id, held, trx);
      const after = await this.read(id, trx);
      const changes = diff(this.d.snapshot(before), this.d.snapshot(after));
      Object.assign(changes.after, notes);
      return {
        result: after,
        audit: { action, targetType: this.kind.target, targetId: id, before: changes.before, after: changes.after },
      };
    });
  }

  /** Replaces only the groups of an item (`<kind>.groups` in the audit log). */
  async setGroups(ctx: AdminContext, id: number, groupIds: readonly number[]): Promise<Item> {
    return this.change(ctx, id, `${this.kind.target}.groups`, groupIds, () => ({}));
  }

  /** Deletes the item; the audit row keeps what it was. */
  async remove(ctx: AdminContext, id: number): Promise<{ id: number }> {
    authorize(ctx.actor, this.kind.manage);
    const { target } = this.kind;
    return this.d.tx.run(ctx, async (trx) => {
      const row = await this.d.store.lock(id, trx);
      if (!row) throw new AppError('NOT_FOUND');
      const before = this.d.present(row, await this.d.grants.groupIds(id, trx));
      await this.d.store.delete(id, trx);
      return {
        result: { id },
        audit: { action: `${target}.delete`, targetType: target, targetId: id, before: this.d.snapshot(before) },
      };
    });
  }

  /** The item as it stands in `db` (a transaction sees its own changes). */
  async read(id: number, db: Db): Promise<Item> {
    const row = await this.d.store.findById(id, db);
    if (!row) throw new AppError('NOT_FOUND');
    return this.d.present(row, await this.d.grants.groupIds(id, db));
  }
}
