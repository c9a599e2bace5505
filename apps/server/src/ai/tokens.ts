import type { TokenUsage } from './chat-completions.js';
import type { UpstreamEnd } from './upstream.js';

// CJK ideographs, kana and hangul: roughly one token per character in common tokenizers.
const WIDE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;

/**
 * A rough token count for when the provider reports no usage: one per wide character,
 * one per four other characters. Only used for accounting, never for limits.
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  const wide = text.match(WIDE)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 4);
}

/** Tokens of one exchange: the provider's total when it reported one, else an estimate. */
export function countTokens(usage: TokenUsage | undefined, prompt: string, answer: string): number {
  const total = usage?.totalTokens ?? ((usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0) || undefined);
  if (total !== undefined && Number.isFinite(total) && total > 0) return Math.round(total);
  return estimateTokens(prompt) + estimateTokens(answer);
}

/**
 * Tokens of an answer as stored. The provider's usage counts what it produced, which is the
 * stored text only when the answer finished: a stopped, timed-out or broken-off answer keeps
 * just the text that arrived, so its count is estimated from that text (and the prompt),
 * never taken from a usage report or an estimate of the whole answer.
 */
export function answerTokens(end: UpstreamEnd, prompt: string, keptText: string): number {
  return countTokens(end.kind === 'finished' ? end.usage : undefined, prompt, keptText);
}
