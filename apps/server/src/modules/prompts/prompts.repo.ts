import { type ExpressionBuilder, type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { PromptScope } from '@aiplatform/contracts';
import type { Database, Db, PromptTemplatesTable } from '../../db/types.js';

export type PromptRow = Selectable<PromptTemplatesTable> & {
  group_name: string | null;
  updated_by_name: string | null;
};
export interface PromptVersionRow {
  version: number;
  title: string;
  content: string;
  edited_by_name: string | null;
  edited_at: string;
}

/** Whose templates a reader sees: the system's, their own and their group's (or every group's). */
export interface PromptReader {
  userId: number;
  groupId: number | null;
  everyGroup: boolean;
}

export interface PromptFilter {
  search?: string | undefined;
  scope?: PromptScope | undefined;
}

/** Where a template counts against its scope's quota. */
export type PromptPlace =
  { scope: 'personal'; ownerId: number } | { scope: 'group'; groupId: number } | { scope: 'system' };

type Eb = ExpressionBuilder<Database, 'prompt_templates'>;

/** The templates a reader may read (the rule of policies/prompts.ts, as SQL). */
function readableBy(eb: Eb, r: PromptReader) {
  const personal = eb.and([
    eb('prompt_templates.scope', '=', 'personal'),
    eb('prompt_templates.owner_id', '=', r.userId),
  ]);
  const system = eb('prompt_templates.scope', '=', 'system');
  if (r.everyGroup) return eb.or([system, personal, eb('prompt_templates.scope', '=', 'group')]);
  if (r.groupId === null) return eb.or([system, personal]);
  return eb.or([
    system,
    personal,
    eb.and([eb('prompt_templates.scope', '=', 'group'), eb('prompt_templates.group_id', '=', r.groupId)]),
  ]);
}

/** LIKE pattern for "contains", case-folded, with `!` escaping the pattern characters. */
const likeContains = (text: string) => `%${text.toLowerCase().replace(/[!%_]/g, '!$&')}%`;

/** Prompt templates and their versions. */
export class PromptsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private withNames(db: Db = this.db) {
    return db
      .selectFrom('prompt_templates')
      .leftJoin('user_groups as g', 'g.id', 'prompt_templates.group_id')
      .leftJoin('users as editor', 'editor.id', 'prompt_templates.updated_by')
      .selectAll('prompt_templates')
      .select(['g.name as group_name', 'editor.username as updated_by_name']);
  }

  find(id: number, db: Db = this.db): Promise<PromptRow | undefined> {
    return this.withNames(db).where('prompt_templates.id', '=', id).executeTakeFirst();
  }

  /** What the reader may read, optionally searched and of one scope; most recently changed first. */
  list(r: PromptReader, f: PromptFilter): Promise<PromptRow[]> {
    let q = this.withNames().where((eb) => readableBy(eb, r));
    if (f.scope) q = q.where('prompt_templates.scope', '=', f.scope);
    if (f.search) {
      const p = likeContains(f.search);
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(prompt_templates.title)`, 'like', sql`${p} escape '!'`),
          eb(sql`lower(prompt_templates.content)`, 'like', sql`${p} escape '!'`),
        ]),
      );
    }
    return q.orderBy('prompt_templates.updated_at', 'desc').orderBy('prompt_templates.id', 'desc').execute();
  }

  /**
   * How many templates the place holds. A personal count runs after the owner's row lock
   * and a group's after the group's, so simultaneous requests cannot both take the last
   * place (SQLite runs one writer at a time anyway).
   */
  async countIn(place: PromptPlace, trx: Db): Promise<number> {
    let q = trx.selectFrom('prompt_templates').select((eb) => eb.fn.countAll().as('n'));
    if (place.scope === 'personal') {
      await trx
        .updateTable('users')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', place.ownerId)
        .execute();
      q = q.where('scope', '=', 'personal').where('owner_id', '=', place.ownerId);
    } else if (place.scope === 'group') {
      q = q.where('scope', '=', 'group').where('group_id', '=', place.groupId);
    } else {
      q = q.where('scope', '=', 'system');
    }
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /** Locks the group's row for the transaction; false when the group does not exist. */
  async lockGroup(id: number, trx: Db): Promise<boolean> {
    const r = await trx
      .updateTable('user_groups')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async insert(row: Insertable<PromptTemplatesTable>, trx: Db): Promise<number> {
    const r = await trx.insertInto('prompt_templates').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Reads the row and, on PostgreSQL, locks it until the transaction ends (a no-op update). */
  lock(id: number, trx: Db): Promise<Selectable<PromptTemplatesTable> | undefined> {
    return trx
      .updateTable('prompt_templates')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Keeps the template's current text as a version, writes the new one, and drops the
   * versions beyond the newest `keep`.
   */
  async saveEdit(
    before: Selectable<PromptTemplatesTable>,
    next: { title: string; content: string; updated_by: number; updated_at: string },
    keep: number,
    trx: Db,
  ): Promise<void> {
    await trx
      .insertInto('prompt_template_versions')
      .values({
        template_id: before.id,
        version: before.version,
        title: before.title,
        content: before.content,
        edited_by: before.updated_by,
        edited_at: before.updated_at,
      })
      .execute();
    await trx
      .updateTable('prompt_templates')
      .set({ ...next, version: before.version + 1 })
      .where('id', '=', before.id)
      .execute();
    await trx
      .deleteFrom('prompt_template_versions')
      .where('template_id', '=', before.id)
      .where('version', '<=', before.version - keep)
      .execute();
  }

  async remove(id: number, trx: Db): Promise<boolean> {
    const r = await trx.deleteFrom('prompt_templates').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Earlier versions, newest first. */
  versions(id: number): Promise<PromptVersionRow[]> {
    return this.db
      .selectFrom('prompt_template_versions as v')
      .leftJoin('users as u', 'u.id', 'v.edited_by')
      .select(['v.version', 'v.title', 'v.content', 'u.username as edited_by_name', 'v.edited_at'])
      .where('v.template_id', '=', id)
      .orderBy('v.version', 'desc')
      .execute();
  }
}
