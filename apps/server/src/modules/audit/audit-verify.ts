import type { AuditChainProblem, AuditCheckpoint, AuditVerifyResult } from '@aiplatform/contracts';
import { AUDIT_CHECKPOINT_FORMAT } from '@aiplatform/contracts';
import { GENESIS_HASH, expectedAuditHash, keyedFromSeal } from './audit-chain.js';
import { checkpointIsGenuine } from './audit-checkpoint.js';
import type { AuditCheckpointsRepo } from './audit-checkpoints.repo.js';
import type { AuditKey } from './audit-key.js';
import type { AuditRepo, ChainHead } from './audit.repo.js';

const BATCH = 1000;

export interface VerifyDeps {
  repo: AuditRepo;
  checkpoints: AuditCheckpointsRepo;
  key: AuditKey;
}

type ChainVerdict = Omit<AuditVerifyResult, 'checkpoint'>;

/** A checkpoint and the chain row at its count as read (undefined when there is none). */
interface Compared {
  checkpoint: AuditCheckpoint;
  row: { id: number; hash: string } | undefined;
}

const broken = (checked: number, brokenAt: number | null, problem: AuditChainProblem): ChainVerdict => ({
  valid: false,
  checked,
  broken_at: brokenAt,
  problem,
});

/**
 * Verifies the audit chain: every row against its content and predecessor, the sealed
 * cut-over to keyed rows, then every stored checkpoint (and `given`, one kept outside the
 * server). Checkpoints are read before the head: the head only grows, so none can count
 * rows the head read after it does not, while appends go on meanwhile.
 */
export async function verifyAuditChain(d: VerifyDeps, given?: AuditCheckpoint): Promise<AuditVerifyResult> {
  const compared: Compared[] = [];
  if (given) compared.push({ checkpoint: given, row: await d.repo.rowAt(given.count) });
  for (const c of await d.checkpoints.all()) {
    compared.push({
      checkpoint: { ...c, format: AUDIT_CHECKPOINT_FORMAT },
      row: c.row_id === null || c.row_hash === null ? undefined : { id: c.row_id, hash: c.row_hash },
    });
  }
  const head = await d.repo.head();
  const chain = await walkChain(d, head);
  if (!chain.valid) return { ...chain, checkpoint: null };
  for (const c of compared) {
    const problem = checkpointProblem(d.key, c, head);
    if (problem) {
      const brokenAt = problem === 'diverged' ? (c.row?.id ?? null) : null;
      return { ...broken(chain.checked, brokenAt, problem), checkpoint: refOf(c.checkpoint) };
    }
  }
  return { ...chain, checkpoint: compared[0] ? refOf(compared[0].checkpoint) : null };
}

const refOf = (c: AuditCheckpoint) => ({ count: c.count, created_at: c.created_at });

/**
 * A checkpoint vouches that the chain held `count` rows ending in `hash`. Fewer rows now
 * means rows were removed from the end (and the head wound back); another row at that
 * place means the chain up to it was replaced or recomputed.
 */
function checkpointProblem(key: AuditKey, { checkpoint: c, row }: Compared, head: ChainHead): AuditChainProblem | null {
  if (!checkpointIsGenuine(key, c)) return 'checkpoint_forged';
  if (c.count > head.seq) return 'rewound';
  if (c.count === 0) return c.hash === GENESIS_HASH ? null : 'diverged';
  if (!row || row.id !== c.last_id || row.hash !== c.hash) return 'diverged';
  return null;
}

/**
 * Recomputes every hash from the first row on; names the first row that does not fit.
 * The chain head read first bounds the check (rows appended meanwhile wait for the next
 * run) and shows rows removed from the end, which leave no gap behind them.
 */
async function walkChain({ repo, key }: VerifyDeps, head: ChainHead): Promise<ChainVerdict> {
  // The cut-over lies within the chain and its seal names the hash the keyed rows start from.
  if (head.keyedFrom < 1 || head.keyedFrom > head.seq + 1) return broken(0, null, 'keying');
  const sealed = (prev: string) => keyedFromSeal(key, head.keyedFrom, prev) === head.keyedSeal;
  let prev = GENESIS_HASH;
  if (head.keyedFrom === 1 && !sealed(prev)) return broken(0, null, 'keying');
  let expectedSeq = 1;
  let checked = 0;
  let lastId: number | null = null;
  for (let rows = await repo.batchAfter(0, BATCH); rows.length > 0;) {
    for (const row of rows) {
      if (Number(row.seq) > head.seq) break;
      const { id: _id, hash, ...content } = row;
      // A deleted row shows as a gap in the sequence; an edited one as a hash mismatch.
      if (
        Number(row.seq) !== expectedSeq ||
        row.prev_hash !== prev ||
        expectedAuditHash(key, head.keyedFrom, content) !== hash
      ) {
        return broken(checked, row.id, 'row');
      }
      prev = hash;
      lastId = row.id;
      expectedSeq += 1;
      checked += 1;
      if (checked === head.keyedFrom - 1 && !sealed(prev)) return broken(checked, null, 'keying');
    }
    if (expectedSeq > head.seq) break;
    rows = await repo.batchAfter(Number(rows.at(-1)?.seq), BATCH);
  }
  // The newest rows were removed (fewer rows than the head counts), or the newest row was rewritten.
  if (checked !== head.seq) return broken(checked, null, 'rows_removed');
  if (prev !== head.hash) return broken(checked - 1, lastId, 'row');
  return { valid: true, checked, broken_at: null, problem: null };
}
