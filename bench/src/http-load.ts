import autocannon from 'autocannon';
import { cpuSeconds } from './proc-stats.js';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Requests answered in all. */
  requests: number;
  /** CPU time the serving process used per answered request (µs), when its pid was given. */
  cpuPerRequestUs?: number;
}

/**
 * Fixed-duration closed-loop load on one URL from this process (loopback only). With
 * `pid`, the CPU time of the serving process is read around the load: unlike the request
 * rate, it hardly depends on what else runs on the machine.
 */
export async function loadUrl(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid?: number,
): Promise<LoadResult> {
  const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid);
  const r = await autocannon({ url, headers, connections: 50, duration: seconds, pipelining: 1 });
  const requests = r.requests.total;
  return {
    requestsPerSecond: Math.round(r.requests.average),
    p99Ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests,
    ...(pid === undefined ? {} : { cpuPerRequestUs: ((cpuSeconds(pid) - cpuBefore) * 1e6) / Math.max(1, requests) }),
  };
}
