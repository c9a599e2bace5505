import { performance } from 'node:perf_hooks';
import type { ModuleRow } from '../../db/types.js';

export const PROBE_TIMEOUT_MS = 5000;

export interface ProbeResult {
  status: 'up' | 'down';
  latencyMs: number;
}

/** The address a health check calls: the module's own health URL, or else the module itself. */
export const probeUrlOf = (m: Pick<ModuleRow, 'health_check_url' | 'module_url'>) => m.health_check_url ?? m.module_url;

/**
 * One GET of a module's address. A 2xx or 3xx answer means up: redirects are not
 * followed, since a login redirect already shows the app is serving, and following them
 * could lead the server anywhere. Anything else — another status, a refused connection,
 * no answer within the time limit — means down. Never throws.
 */
export async function probe(
  url: string,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ProbeResult> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? PROBE_TIMEOUT_MS);
  const started = performance.now();
  const latency = () => Math.max(0, Math.round(performance.now() - started));
  try {
    const res = await fetch(url, {
      method: 'GET',
      redirect: 'manual',
      signal: opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout,
      headers: { 'user-agent': 'aiplatform-health-check' },
    });
    const latencyMs = latency();
    // Only the status matters; release the connection without reading the body.
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status >= 200 && res.status < 400 ? 'up' : 'down', latencyMs };
  } catch {
    return { status: 'down', latencyMs: latency() };
  }
}
