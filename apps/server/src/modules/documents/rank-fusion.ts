/*
 * Reciprocal rank fusion: each ranking gives a chunk 1 / (k + its place), and the sums order
 * the result. Places, not scores, are added, so BM25 or ts_rank figures and cosine
 * similarities need no common scale; k = 60 keeps one list's first place from outweighing
 * agreement between lists (the constant usual for this method).
 */

const K = 60;

/** Fuses rankings of ids (each best first) into one, best first, with the fused scores. */
export function fuseRanks(rankings: readonly (readonly number[])[]): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings)
    ranking.forEach((id, place) => scores.set(id, (scores.get(id) ?? 0) + 1 / (K + place + 1)));
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}
