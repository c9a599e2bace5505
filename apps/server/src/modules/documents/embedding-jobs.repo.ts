import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { applyCreditChange } from '../credits/credits-writer.js';
import { toEmbeddingBytes } from './vector-scoring.js';

/** A document taken from the embedding queue, with whom its embedding is charged to. */
export interface EmbedClaim {
  id: string;
  userId: number;
  name: string;
}

export interface PendingChunk {
  id: number;
  text: string;
  tokens: number;
}

/** What storing a batch came to: stored and charged, lease lost (nothing written), or unpaid (nothing written). */
export type StoreOutcome = 'stored' | 'lost' | 'unpaid';

/**
 * The embedding queue: ready documents whose `embed_model` is not the model set up now. An
 * instance takes one by a conditional update of its lease, so two never embed (nor charge)
 * the same document at once; every batch is stored, and charged, only while the lease is
 * still its own, in one transaction.
 */
export class EmbeddingJobsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes the oldest ready document not settled for `model`; undefined when none waits. */
  async claim(owner: string, model: string, now: string, leaseUntil: string): Promise<EmbedClaim | undefined> {
    const waiting = this.db
      .selectFrom('files')
      .where('kind', '=', 'document')
      .where('status', '=', 'ready')
      .where((eb) => eb.or([eb('embed_model', 'is', null), eb('embed_model', '<>', model)]))
      .where((eb) => eb.or([eb('embed_lease_until', 'is', null), eb('embed_lease_until', '<', now)]));
    // A few candidates: another instance may take the first between our read and our update.
    const candidates = await waiting.select('id').orderBy('created_at').limit(3).execute();
    for (const { id } of candidates) {
      const taken = await this.db
        .updateTable('files')
        .set({ embed_owner: owner, embed_lease_until: leaseUntil })
        .where('id', '=', id)
        .where('status', '=', 'ready')
        .where((eb) => eb.or([eb('embed_model', 'is', null), eb('embed_model', '<>', model)]))
        .where((eb) => eb.or([eb('embed_lease_until', 'is', null), eb('embed_lease_until', '<', now)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) continue;
      const row = await this.db
        .selectFrom('files')
        .select(['id', 'user_id', 'original_name'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (row) return { id: row.id, userId: row.user_id, name: row.original_name };
    }
    return undefined;
  }

  /** The document's next chunks without an embedding of `model`, in order. */
  pending(fileId: string, model: string, limit: number): Promise<PendingChunk[]> {
    return this.db
      .selectFrom('document_chunks')
      .select(['id', 'text', 'tokens'])
      .where('file_id', '=', fileId)
      .where((eb) =>
        eb.or([eb('embedding', 'is', null), eb('embedding_model', 'is', null), eb('embedding_model', '<>', model)]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Whether the user's unexpired balance covers `cost` now (checked again when charging). */
  async canPay(userId: number, cost: number, now: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('users')
      .select(['credits_quota', 'credits_used', 'credits_expire_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!r) return false;
    const expired = r.credits_expire_at !== null && r.credits_expire_at <= now;
    return !expired && r.credits_quota - r.credits_used >= cost;
  }

  /**
   * Stores a batch's vectors and charges the uploader `cost`, all or nothing, while `owner`
   * still holds the document (the lease is extended by the same update).
   */
  async store(
    owner: string,
    claim: EmbedClaim,
    batch: { model: string; chunks: readonly PendingChunk[]; vectors: readonly number[][]; cost: number },
    now: string,
    leaseUntil: string,
  ): Promise<StoreOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const held = await trx
        .updateTable('files')
        .set({ embed_lease_until: leaseUntil })
        .where('id', '=', claim.id)
        .where('embed_owner', '=', owner)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return 'lost';
      if (batch.cost > 0) {
        const paid = await applyCreditChange(trx, {
          userId: claim.userId,
          type: 'embedding',
          amount: -batch.cost,
          description: 'server.ledger.embedding',
          reason: claim.name,
          requireUnexpired: true,
          now,
        });
        if (!paid.ok) return 'unpaid';
      }
      for (const [i, chunk] of batch.chunks.entries()) {
        await trx
          .updateTable('document_chunks')
          .set({ embedding: toEmbeddingBytes(batch.vectors[i]!), embedding_model: batch.model })
          .where('id', '=', chunk.id)
          .execute();
      }
      return 'stored';
    });
  }

  /** Extends the leases of the documents `owner` is embedding. */
  async renew(owner: string, ids: readonly string[], leaseUntil: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('files')
      .set({ embed_lease_until: leaseUntil })
      .where('id', 'in', ids)
      .where('embed_owner', '=', owner)
      .execute();
  }

  /** Marks the document done for `model` (every chunk embedded, or skipped unpaid) and lets it go. */
  async settle(owner: string, fileId: string, model: string): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ embed_model: model, embed_owner: null, embed_lease_until: null })
      .where('id', '=', fileId)
      .where('embed_owner', '=', owner)
      .execute();
  }

  /** Lets the document go unsettled; nobody takes it again before `retryAt` (null: at once). */
  async release(owner: string, fileId: string, retryAt: string | null): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ embed_owner: null, embed_lease_until: retryAt })
      .where('id', '=', fileId)
      .where('embed_owner', '=', owner)
      .execute();
  }
}

/** Credits for embedding `tokens` at `per1k` credits per 1,000 tokens, rounded up. */
export const embeddingCost = (tokens: number, per1k: number): number =>
  per1k <= 0 || tokens <= 0 ? 0 : Math.ceil((tokens * per1k) / 1000);
