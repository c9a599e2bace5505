import http from 'node:http';
import { MODEL, type BenchUser, createConversation, hasContent, isMessageEvent, postStream } from './api.js';
import { type Row, median, ms, percentile, verdict } from './stats.js';

export interface TtftOptions {
  apiUrl: string;
  upstreamUrl: string;
  /** The bare pass-through proxy in front of the same upstream (bare-proxy.ts). */
  proxyUrl: string;
  user: BenchUser;
  samples: number;
  warmup: number;
  /**
   * The upstream's own time to its first chunk (`[fake:ttft=N]`): 0 for an instant one,
   * about 150 ms for a real model, where the platform can do its work while it waits.
   */
  firstTokenMs: number;
  /** Budget of the time the platform adds, median and p99 (ms); no p99 budget when undefined. */
  budget: { median: number; p99?: number };
}

/**
 * Time to first token, sequentially: the fake upstream called directly (first chunk with
 * text), through the bare pass-through proxy (the floor of any relay) and through the
 * platform (first `message` event), interleaved in rotating order so that drift hits all
 * alike. All use a keep-alive connection, as the server does towards the upstream.
 */
export async function measureTtft(o: TtftOptions): Promise<Row[]> {
  const conversationId = await createConversation(o.apiUrl, o.user.token, { context_length: 0 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const direct: number[] = [];
  const platform: number[] = [];
  const added: number[] = [];
  const proxyAdded: number[] = [];
  /** Through the platform: request → `init` (checks and credit reservation done) and `init` → first token. */
  const toInit: number[] = [];
  const initToToken: number[] = [];
  const failures: string[] = [];

  const viaUpstream = async (content: string, base = o.upstreamUrl) => {
    const r = await postStream(`${base}/chat/completions`, {
      agent,
      timeoutMs: 10_000,
      body: { model: MODEL, stream: true, temperature: 0, messages: [{ role: 'user', content }] },
      isFirst: hasContent,
    });
    if (r.status !== 200 || r.firstAt === undefined || r.error) failures.push(`${base}: ${r.status} ${r.error ?? ''}`);
    return (r.firstAt ?? r.endAt) - r.startedAt;
  };
  const viaPlatform = async (content: string) => {
    const r = await postStream(`${o.apiUrl}/api/chat/conversations/${conversationId}/messages`, {
      agent,
      token: o.user.token,
      timeoutMs: 10_000,
      body: { content, stream: true, stream_options: { delta_only: true } },
      isFirst: isMessageEvent,
    });
    if (r.status !== 200 || r.firstAt === undefined || r.error || !r.events.includes('done'))
      failures.push(`platform: ${r.status} ${r.error ?? r.body.slice(0, 200)}`);
    const init = r.eventAt.init ?? r.endAt;
    return {
      total: (r.firstAt ?? r.endAt) - r.startedAt,
      init: init - r.startedAt,
      rest: (r.firstAt ?? r.endAt) - init,
    };
  };

  for (let i = 0; i < o.warmup + o.samples; i++) {
    const directive = o.firstTokenMs > 0 ? `[fake:ttft=${o.firstTokenMs}] ` : '';
    const content = `${directive}What is the time to first token? Sample ${i}.`;
    let d = 0;
    let x = 0;
    let p: Awaited<ReturnType<typeof viaPlatform>> | undefined;
    const steps = [
      async () => (d = await viaUpstream(content)),
      async () => (x = await viaUpstream(content, o.proxyUrl)),
      async () => (p = await viaPlatform(content)),
    ];
    for (let k = 0; k < steps.length; k++) await (steps[(i + k) % steps.length] as () => Promise<unknown>)();
    if (i < o.warmup || !p) continue;
    direct.push(d);
    proxyAdded.push(x - d);
    platform.push(p.total);
    added.push(p.total - d);
    toInit.push(p.init);
    initToToken.push(p.rest);
  }
  agent.destroy();

  const dMed = median(direct);
  const pMed = median(platform);
  const aMed = median(added);
  const aP99 = percentile(added, 99);
  const errors = failures.length;
  const data = {
    samples: o.samples,
    firstTokenMs: o.firstTokenMs,
    direct: { median: dMed, p99: percentile(direct, 99) },
    platform: { median: pMed, p99: percentile(platform, 99) },
    added: { median: aMed, p99: aP99 },
    proxyAdded: { median: median(proxyAdded), p99: percentile(proxyAdded, 99) },
    platformToInit: { median: median(toInit), p99: percentile(toInit, 99) },
    platformInitToFirstToken: { median: median(initToToken), p99: percentile(initToToken, 99) },
    errors,
    firstErrors: failures.slice(0, 3),
  };
  const upstream =
    o.firstTokenMs > 0 ? `an upstream taking ${o.firstTokenMs} ms to its first token` : 'an instant upstream';
  const budget = `≤ ${o.budget.median} ms median` + (o.budget.p99 === undefined ? '' : `, ≤ ${o.budget.p99} ms p99`);
  const met = aMed <= o.budget.median && (o.budget.p99 === undefined || aP99 <= o.budget.p99) && errors === 0;
  return [
    {
      what: `TTFT, ${upstream}: called directly (baseline)`,
      result: `median ${ms(dMed)}, p99 ${ms(percentile(direct, 99))} (${o.samples} sequential samples)`,
      budget: '—',
      met: '—',
    },
    {
      what: `TTFT, ${upstream}: added by a bare pass-through proxy (floor of any relay, paired difference)`,
      result: `median ${ms(median(proxyAdded))}, p99 ${ms(percentile(proxyAdded, 99))}`,
      budget: '—',
      met: '—',
    },
    {
      what: `TTFT, ${upstream}: through the platform (first \`message\` event)`,
      result:
        `median ${ms(pMed)}, p99 ${ms(percentile(platform, 99))} (median ×${(pMed / dMed).toFixed(2)} of direct; ` +
        `median ${ms(median(toInit))} to \`init\`, then ${ms(median(initToToken))} to the first token)`,
      budget: '—',
      met: '—',
    },
    {
      what: `TTFT, ${upstream}: added by the platform (paired difference)`,
      result:
        `median ${ms(aMed)}, p99 ${ms(aP99)}, errors ${errors} ` +
        `(${ms(aMed - median(proxyAdded))} above the bare proxy's median)`,
      budget,
      met: verdict(met),
      data,
    },
  ];
}
