/** Nearest-rank percentile (p in 0..100) of a sample; NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const median = (values: number[]) => percentile(values, 50);

export const ms = (v: number, digits = 2) => `${v.toFixed(digits)} ms`;

export const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** One line of the results table. `met` is yes, NO, or — when there is no budget. */
export interface Row {
  /** The run.ts entry that measured it (ttft, streams, list, credits, web, admin, stats, sso, retrieval). */
  entry?: string;
  what: string;
  result: string;
  budget: string;
  met: string;
  /** Raw numbers behind the result, kept in latest.json. */
  data?: Record<string, unknown>;
}

export const verdict = (ok: boolean) => (ok ? 'yes' : 'NO');
