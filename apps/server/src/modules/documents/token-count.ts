import { countTokens as countO200k, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

/** Above this many characters a text is counted in slices: the tokenizer's cost grows with its input. */
const SLICE_CHARS = 100_000;

/**
 * Tokens of a text as current OpenAI models count them (o200k). Other providers' tokenizers
 * differ a little; the count sizes passages and decides whether documents fit whole, where
 * a few percent do not matter. Long texts are counted slice by slice (a word cut at a slice
 * edge may count one token more).
 */
export function countTokens(text: string): number {
  if (text.length <= SLICE_CHARS) return countO200k(text);
  let total = 0;
  for (let i = 0; i < text.length; i += SLICE_CHARS) total += countO200k(text.slice(i, i + SLICE_CHARS));
  return total;
}

/** The last `tokens` tokens of a text, as text (the overlap carried into the next passage). */
export function tailTokens(text: string, tokens: number): string {
  const all = encode(text);
  return all.length <= tokens ? text : decode(all.slice(-tokens));
}

/** The text split into pieces of at most `tokens` tokens each (for a line too long to be one passage). */
export function splitByTokens(text: string, tokens: number): string[] {
  const all = encode(text);
  const out: string[] = [];
  for (let i = 0; i < all.length; i += tokens) out.push(decode(all.slice(i, i + tokens)));
  return out;
}
