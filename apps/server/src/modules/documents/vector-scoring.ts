/*
 * Exact vector scoring: every candidate embedding is compared with the question's, no
 * approximate index. Embeddings are stored as float32 little-endian bytes.
 */

/** The bytes stored for an embedding. */
export function toEmbeddingBytes(vector: readonly number[] | Float32Array): Buffer {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

/** The vector of stored bytes (copied, so the buffer's alignment does not matter). */
export function fromEmbeddingBytes(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(Math.floor(bytes.byteLength / 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset, out.length * 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** Cosine similarity; 0 when either vector is all zeros or their lengths differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The ids of the `limit` embeddings closest to the query, best first; none pointing away or across (cosine ≤ 0). */
export function nearest(
  query: Float32Array,
  rows: readonly { id: number; embedding: Uint8Array }[],
  limit: number,
): { id: number; score: number }[] {
  return rows
    .map((r) => ({ id: r.id, score: cosine(query, fromEmbeddingBytes(r.embedding)) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, limit);
}
