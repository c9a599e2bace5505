import type { Kysely } from 'kysely';
import type { Database, FileRow } from '../../db/types.js';
import type { DocumentChunk, DocumentIndexRepo, DocumentPage } from './document-index.repo.js';

/** A document taken from the queue: enough to read it. */
export type ClaimedFile = Pick<FileRow, 'id' | 'stored_name' | 'original_name' | 'job_attempts'>;

/**
 * The extraction queue, which is the `files` rows of documents still `processing`. An
 * instance takes one by writing its id and a lease with a conditional update that only
 * succeeds while nobody holds a live lease, so two instances never read the same file at
 * once, and a lease left by a killed instance simply runs out.
 */
export class DocumentJobsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly index: DocumentIndexRepo,
  ) {}

  /** Takes the oldest waiting document for `owner` until `leaseUntil`; undefined when none waits. */
  async claim(owner: string, now: string, leaseUntil: string): Promise<ClaimedFile | undefined> {
    // A few candidates: another instance may take the first between our read and our update.
    const candidates = await this.db
      .selectFrom('files')
      .select('id')
      .where('status', '=', 'processing')
      .where((eb) => eb.or([eb('job_lease_until', 'is', null), eb('job_lease_until', '<', now)]))
      .orderBy('created_at')
      .limit(3)
      .execute();
    for (const { id } of candidates) {
      const taken = await this.db
        .updateTable('files')
        .set((eb) => ({ job_owner: owner, job_lease_until: leaseUntil, job_attempts: eb('job_attempts', '+', 1) }))
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .where((eb) => eb.or([eb('job_lease_until', 'is', null), eb('job_lease_until', '<', now)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) continue;
      return this.db
        .selectFrom('files')
        .select(['id', 'stored_name', 'original_name', 'job_attempts'])
        .where('id', '=', id)
        .executeTakeFirst();
    }
    return undefined;
  }

  /** Extends the leases of the files `owner` is reading. */
  async renew(owner: string, ids: readonly string[], leaseUntil: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('files')
      .set({ job_lease_until: leaseUntil })
      .where('id', 'in', ids)
      .where('job_owner', '=', owner)
      .where('status', '=', 'processing')
      .execute();
  }

  /**
   * Stores the document's text and marks it ready, in one transaction, only while `owner`
   * still holds it (a file deleted meanwhile, or taken over after a lost lease, is left alone).
   */
  async finish(
    owner: string,
    fileId: string,
    result: { pages: readonly DocumentPage[]; chunks: readonly DocumentChunk[]; tokens: number },
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('files')
        .set({ status: 'ready', pages: result.pages.length, tokens: result.tokens, ...released })
        .where('id', '=', fileId)
        .where('job_owner', '=', owner)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await this.index.replace(trx, fileId, result.pages, result.chunks);
      return true;
    });
  }

  /** Marks the document failed with an error code (while `owner` holds it; no owner: unconditionally). */
  async fail(owner: string | undefined, fileId: string, code: string): Promise<void> {
    let q = this.db
      .updateTable('files')
      .set({ status: 'failed', error_code: code, ...released })
      .where('id', '=', fileId)
      .where('status', '=', 'processing');
    if (owner) q = q.where('job_owner', '=', owner);
    await q.execute();
  }

  /**
   * Gives a document back to the queue at once. `uncount` takes back the attempt when the
   * instance stopped on purpose (closing), which says nothing about the file.
   */
  async release(owner: string, fileId: string, uncount: boolean): Promise<void> {
    await this.db
      .updateTable('files')
      .set((eb) => ({ ...released, ...(uncount ? { job_attempts: eb('job_attempts', '-', 1) } : {}) }))
      .where('id', '=', fileId)
      .where('job_owner', '=', owner)
      .where('status', '=', 'processing')
      .execute();
  }
}

const released = { job_owner: null, job_lease_until: null } as const;
