import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { CurrentEmbeddingModel, EmbeddingModel } from './embedding-model.js';
import { type EmbedClaim, type EmbeddingJobsRepo, embeddingCost } from './embedding-jobs.repo.js';
import { LeaseRunner } from './lease-runner.js';

/** Chunks sent in one embeddings request (and stored and charged together). */
export const EMBED_BATCH = 64;
/** After a failed embeddings call the document waits this long before anyone tries again. */
export const EMBED_RETRY_MS = 60_000;
/** A batch's call gives up after this long (an upstream that never answers must not hold the document). */
const CALL_TIMEOUT_MS = 120_000;

/**
 * The instance's share of the embedding queue, one document at a time: while an embedding
 * model is set up, it takes a ready document not yet settled for that model, embeds its
 * chunks lacking that model's embedding in batches, and stores each batch with its charge to
 * the uploader. A failed call leaves the rest unembedded and the document waiting a while;
 * an uploader who cannot pay for the next batch has the document settled without it (it is
 * still found by full text).
 */
export class EmbeddingJobs extends LeaseRunner {
  private current: string | undefined;

  constructor(
    private readonly repo: EmbeddingJobsRepo,
    private readonly model: EmbeddingModel,
    clock: Clock,
    log: FastifyBaseLogger,
    leaseMs: number,
  ) {
    super({
      clock,
      log,
      leaseMs,
      failures: { round: 'embedding documents failed', renew: 'renewing embedding leases failed' },
      // One round drains the queue; a kick meanwhile finds its work in that round or the next poll.
      kickAgain: false,
    });
  }

  private now = () => this.clock.now().toISOString();

  protected async runRound(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const model = await this.model.current();
      if (!model) return;
      const claim = await this.repo.claim(this.ownerId, model.name, this.now(), this.leaseUntil());
      if (!claim) return;
      this.current = claim.id;
      try {
        // After a failed call the round ends: the model is likely down for the other documents too.
        if (!(await this.embed(claim, model))) return;
      } finally {
        this.current = undefined;
      }
    }
  }

  protected held(): string[] {
    return this.current ? [this.current] : [];
  }

  protected renewLeases(ids: string[], until: string): Promise<void> {
    return this.repo.renew(this.ownerId, ids, until);
  }

  /** Embeds the document's waiting chunks; false when the model could not be called. */
  private async embed(claim: EmbedClaim, model: CurrentEmbeddingModel): Promise<boolean> {
    for (;;) {
      const chunks = await this.repo.pending(claim.id, model.name, EMBED_BATCH);
      if (chunks.length === 0) {
        await this.repo.settle(this.ownerId, claim.id, model.name);
        return true;
      }
      const cost = embeddingCost(
        chunks.reduce((n, c) => n + c.tokens, 0),
        model.creditsPer1k,
      );
      if (cost > 0 && !(await this.repo.canPay(claim.userId, cost, this.now()))) {
        await this.unpaid(claim, model);
        return true;
      }
      let vectors: number[][];
      try {
        vectors = await model.embed(
          chunks.map((c) => c.text),
          AbortSignal.any([this.stopping.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
        );
      } catch (err) {
        const closing = this.stopping.signal.aborted;
        if (!closing) this.log.warn({ err, fileId: claim.id }, 'embedding a document failed; it is tried again later');
        const retryAt = closing ? null : new Date(this.clock.now().getTime() + EMBED_RETRY_MS).toISOString();
        await this.repo.release(this.ownerId, claim.id, retryAt);
        return false;
      }
      const batch = { model: model.name, chunks, vectors, cost };
      const outcome = await this.repo.store(this.ownerId, claim, batch, this.now(), this.leaseUntil());
      if (outcome === 'lost') return true;
      if (outcome === 'unpaid') {
        await this.unpaid(claim, model);
        return true;
      }
    }
  }

  private async unpaid(claim: EmbedClaim, model: CurrentEmbeddingModel): Promise<void> {
    this.log.info({ fileId: claim.id, userId: claim.userId }, 'the uploader cannot pay for embedding; full text only');
    await this.repo.settle(this.ownerId, claim.id, model.name);
  }
}
