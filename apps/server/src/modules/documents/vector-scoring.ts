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

/** Whether this machine stores floats little-endian, as embeddings are stored (then bytes can be read in place). */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The stored bytes as floats: in place when aligned on this little-endian machine, else copied. */
function floatsOf(bytes: Uint8Array): Float32Array {
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return fromEmbeddingBytes(bytes);
}

/**
 * The ids of the `limit` embeddings closest to the query, best first; none pointing away or
 * across (cosine ≤ 0). The question's length is computed once and stored bytes are read in
 * place: this runs over every embedding of a scope.
 */
export function nearest(
  query: Float32Array,
  rows: readonly { id: number; embedding: Uint8Array }[],
  limit: number,
): { id: number; score: number }[] {
  let qq = 0;
  for (let i = 0; i < query.length; i++) qq += query[i]! * query[i]!;
  if (qq === 0) return [];
  const qNorm = Math.sqrt(qq);
  const scored: { id: number; score: number }[] = [];
  for (const r of rows) {
    const v = floatsOf(r.embedding);
    if (v.length !== query.length) continue;
    let dot = 0;
    let vv = 0;
    for (let i = 0; i < v.length; i++) {
      const y = v[i]!;
      dot += query[i]! * y;
      vv += y * y;
    }
    const score = vv === 0 ? 0 : dot / (qNorm * Math.sqrt(vv));
    if (score > 0) scored.push({ id: r.id, score });
  }
  return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}
