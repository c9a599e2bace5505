import { upstreamFetch } from './upstream-fetch.js';

/** Where an OpenAI-compatible embeddings API is reached, and with which model and key. */
export interface EmbeddingsTarget {
  /** Base URL ending before `/embeddings`, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  modelId: string;
  apiKey: string | undefined;
}

/** An embeddings call that did not give one usable vector per text. */
export class EmbeddingsError extends Error {
  override readonly name = 'EmbeddingsError';
}

/**
 * Embeds texts with `POST {base}/embeddings` (the OpenAI API most embedding servers speak),
 * one vector per text, in the order given. Redirects are refused like every model call (the
 * key is in the headers). Any answer without exactly one vector of one common length per
 * text is an error: a partial answer must not be stored as if it were whole.
 */
export async function embedTexts(
  t: EmbeddingsTarget,
  texts: readonly string[],
  signal: AbortSignal,
): Promise<number[][]> {
  const res = await upstreamFetch(`${t.baseUrl.replace(/\/+$/, '')}/embeddings`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(t.apiKey ? { authorization: `Bearer ${t.apiKey}` } : {}),
    },
    body: JSON.stringify({ model: t.modelId, input: texts, encoding_format: 'float' }),
    signal,
  });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new EmbeddingsError(`the embeddings endpoint answered HTTP ${res.status}`);
  }
  const body = (await res.json()) as { data?: { index?: number; embedding?: unknown }[] };
  const data = Array.isArray(body.data) ? body.data : [];
  const out: number[][] = new Array<number[]>(texts.length);
  for (const [i, item] of data.entries()) {
    const at = typeof item.index === 'number' ? item.index : i;
    const v = item.embedding;
    if (
      at < 0 ||
      at >= texts.length ||
      !Array.isArray(v) ||
      !v.every((x) => typeof x === 'number' && Number.isFinite(x))
    )
      throw new EmbeddingsError('the embeddings endpoint answered an unusable vector');
    out[at] = v as number[];
  }
  const dims = out[0]?.length ?? 0;
  if (data.length !== texts.length || dims === 0 || out.some((v) => v?.length !== dims))
    throw new EmbeddingsError('the embeddings endpoint did not answer one vector per text');
  return out;
}
