import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Fixed-duration closed-loop load on one URL from this process (loopback only). */
export async function loadUrl(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  const r = await autocannon({ url, headers, connections: 50, duration: seconds, pipelining: 1 });
  return {
    requestsPerSecond: Math.round(r.requests.average),
    p99Ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}
