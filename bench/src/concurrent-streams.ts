import http from 'node:http';
import { MODEL, type BenchUser, createConversation, hasContent, inBatches, isMessageEvent, postStream } from './api.js';
import { type Sqlite, setBalance } from './db.js';
import { cpuSeconds, listenOverflows, procStatusKb, sampleRss } from './proc-stats.js';
import { type Row, mb, median, verdict } from './stats.js';
import { createKey } from './ttft-v1.js';

export interface ConcurrentOptions {
  apiUrl: string;
  upstreamUrl: string;
  /** The bare pass-through proxy in front of the same upstream, in its own process. */
  proxy: { url: string; pid: number };
  serverPid: number;
  db: Sqlite;
  users: BenchUser[];
  costPerChat: number;
  streams: number;
  /** Pause between the upstream's chunks: with ~44 chunks an answer lasts ~44 × this. */
  chunkDelayMs: number;
  /** New connections are spread evenly over this time instead of all in the same tick. */
  rampMs: number;
  timeoutMs: number;
}

interface Burst {
  completed: number;
  errors: number;
  maxOpen: number;
  seconds: number;
  /** Connections the kernel dropped meanwhile because a listen queue was full (system-wide counter). */
  listenOverflows: number;
  /** Events received per completed stream (for the upstream: its chunks). */
  eventsPerStream: number;
  /** Time to the first token of each stream, under this load. */
  ttftMedianMs: number;
  ttftMaxMs: number;
  firstErrors: string[];
}

/** First token of each chat of the burst, on the platform. */
const TTFT_BUDGET = { medianMs: 100, maxMs: 500 };

/** Milliseconds below a second, seconds above. */
const duration = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens the streams on fresh connections (spread over `rampMs`) and waits until every one has ended. */
async function burst(
  count: number,
  rampMs: number,
  open: (i: number, agent: http.Agent, onEvent: () => void) => ReturnType<typeof postStream>,
  isComplete: (events: string[]) => boolean,
): Promise<Burst> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let current = 0;
  let maxOpen = 0;
  const overflowsBefore = listenOverflows();
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      let counted = false;
      await sleep((i * rampMs) / count);
      const r = await open(i, agent, () => {
        if (counted) return;
        counted = true;
        current += 1;
        maxOpen = Math.max(maxOpen, current);
      });
      if (counted) current -= 1;
      return r;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const ttfts = outcomes.filter((r) => r.firstAt !== undefined).map((r) => (r.firstAt as number) - r.startedAt);
  const overflows = listenOverflows() - overflowsBefore;
  const done = outcomes.filter((r) => r.status === 200 && !r.error && isComplete(r.events));
  const eventsPerStream = done.reduce((n, r) => n + r.events.length, 0) / Math.max(1, done.length);
  const failed = outcomes.filter((r) => r.status !== 200 || r.error || !isComplete(r.events));
  return {
    completed: outcomes.length - failed.length,
    errors: failed.length,
    maxOpen,
    seconds,
    listenOverflows: overflows,
    eventsPerStream,
    ttftMedianMs: median(ttfts),
    ttftMaxMs: Math.max(...ttfts),
    firstErrors: failed
      .slice(0, 3)
      .map(
        (r) =>
          `${r.status} ${r.error ?? r.body.slice(0, 200)} events: ${r.events.filter((e) => e !== 'message').join(',')}`,
      ),
  };
}

/**
 * N streaming chats open at once on one instance, spread over several users and
 * conversations, against an upstream that streams slowly. Baseline: the same burst sent
 * straight to the upstream. The server's resident memory is sampled from /proc meanwhile.
 */
export async function measureConcurrentStreams(o: ConcurrentOptions): Promise<Row[]> {
  const perUser = Math.ceil(o.streams / o.users.length);
  const targets: { user: BenchUser; conversationId: string }[] = [];
  for (const user of o.users) {
    // The chat's burst and then the same through `/v1`, with room to spare.
    setBalance(o.db, user.id, perUser * o.costPerChat * 3);
    const ids = await inBatches(Array.from({ length: perUser }), 16, () => createConversation(o.apiUrl, user.token));
    for (const conversationId of ids) targets.push({ user, conversationId });
  }
  const question = (i: number) => `[fake:delay=${o.chunkDelayMs}] Concurrent stream ${i}, please answer slowly.`;

  const direct = await burst(
    o.streams,
    o.rampMs,
    (i, agent, onEvent) =>
      postStream(`${o.upstreamUrl}/chat/completions`, {
        agent,
        timeoutMs: o.timeoutMs,
        body: { model: MODEL, stream: true, messages: [{ role: 'user', content: question(i) }] },
        isFirst: hasContent,
        onEvent,
      }),
    (events) => events.length > 2,
  );

  // The floor: the same burst through a proxy that only passes bytes on.
  const proxyRss = sampleRss(o.proxy.pid);
  const proxyCpuBefore = cpuSeconds(o.proxy.pid);
  const proxied = await burst(
    o.streams,
    o.rampMs,
    (i, agent, onEvent) =>
      postStream(`${o.proxy.url}/chat/completions`, {
        agent,
        timeoutMs: o.timeoutMs,
        body: { model: MODEL, stream: true, messages: [{ role: 'user', content: question(i) }] },
        isFirst: hasContent,
        onEvent,
      }),
    (events) => events.length > 2,
  );
  const proxyPeakKb = proxyRss.stop();
  const proxyCpuPerChunkUs =
    ((cpuSeconds(o.proxy.pid) - proxyCpuBefore) * 1e6) / Math.max(1, proxied.completed * direct.eventsPerStream);

  const idleKb = procStatusKb(o.serverPid, 'VmRSS');
  const rss = sampleRss(o.serverPid);
  const cpuBefore = cpuSeconds(o.serverPid);
  const platform = await burst(
    o.streams,
    o.rampMs,
    (i, agent, onEvent) => {
      const t = targets[i % targets.length] as (typeof targets)[number];
      return postStream(`${o.apiUrl}/api/chat/conversations/${t.conversationId}/messages`, {
        agent,
        token: t.user.token,
        timeoutMs: o.timeoutMs,
        body: { content: question(i), stream: true, stream_options: { delta_only: true } },
        isFirst: isMessageEvent,
        onEvent,
      });
    },
    (events) => events.includes('done') && !events.includes('error'),
  );
  const peakKb = rss.stop();
  const serverCpu = cpuSeconds(o.serverPid) - cpuBefore;
  const hwmKb = procStatusKb(o.serverPid, 'VmHWM');

  // The same burst through the OpenAI-compatible endpoint, one personal key per user.
  const keys = o.users.map((user) => createKey(o.db, user.id));
  const v1Rss = sampleRss(o.serverPid);
  const v1CpuBefore = cpuSeconds(o.serverPid);
  const v1 = await burst(
    o.streams,
    o.rampMs,
    (i, agent, onEvent) =>
      postStream(`${o.apiUrl}/v1/chat/completions`, {
        agent,
        token: keys[i % keys.length],
        timeoutMs: o.timeoutMs,
        body: { model: MODEL, stream: true, messages: [{ role: 'user', content: question(i) }] },
        isFirst: hasContent,
        onEvent,
      }),
    (events) => events.length > 2,
  );
  const v1PeakKb = v1Rss.stop();
  const v1CpuPerChunkUs =
    ((cpuSeconds(o.serverPid) - v1CpuBefore) * 1e6) / Math.max(1, v1.completed * direct.eventsPerStream);

  const relayedChunks = platform.completed * direct.eventsPerStream;
  const cpuPerChunkUs = (serverCpu * 1e6) / Math.max(1, relayedChunks);
  const cpuRatio = cpuPerChunkUs / Math.max(1, proxyCpuPerChunkUs);
  const ok =
    platform.completed >= o.streams && platform.maxOpen >= o.streams && platform.errors === 0 && peakKb < 400 * 1024;
  return [
    {
      what: `${o.streams} concurrent streams straight to the fake upstream (baseline)`,
      result: `${direct.completed} completed, ${direct.errors} errors, ${direct.maxOpen} open at once, all done in ${direct.seconds.toFixed(1)} s`,
      budget: '—',
      met: '—',
      data: { ...direct },
    },
    {
      what: `${o.streams} concurrent streams through a bare pass-through proxy (floor)`,
      result:
        `${proxied.completed} completed, ${proxied.errors} errors, ${proxied.maxOpen} open at once, ` +
        `all done in ${proxied.seconds.toFixed(1)} s; proxy CPU ≈ ${proxyCpuPerChunkUs.toFixed(0)} µs per chunk, ` +
        `RSS peak ${mb(proxyPeakKb)}`,
      budget: '—',
      met: '—',
      data: { ...proxied, cpuPerChunkUs: proxyCpuPerChunkUs, peakRssKb: proxyPeakKb },
    },
    {
      what: `${o.streams} concurrent streaming chats on one instance`,
      result:
        `${platform.completed} completed, ${platform.errors} errors, ${platform.maxOpen} open at once, ` +
        `all done in ${platform.seconds.toFixed(1)} s (×${(platform.seconds / direct.seconds).toFixed(2)} of direct); ` +
        `server RSS peak ${mb(peakKb)} (idle ${mb(idleKb)})`,
      budget: 'all open at once, no errors, RSS < 400 MB',
      met: verdict(ok),
      data: {
        ...platform,
        serverCpuSeconds: serverCpu,
        cpuPerChunkUs,
        idleRssKb: idleKb,
        peakRssKb: peakKb,
        vmHwmKb: hwmKb,
        users: o.users.length,
      },
    },
    v1Row(o.streams, v1, platform, {
      peakKb: v1PeakKb,
      cpuPerChunkUs: v1CpuPerChunkUs,
      chatCpuPerChunkUs: cpuPerChunkUs,
    }),
    {
      what: `CPU per relayed chunk under those ${o.streams} streams`,
      result:
        `${cpuPerChunkUs.toFixed(0)} µs (server CPU ${serverCpu.toFixed(1)} s ÷ ${relayedChunks.toFixed(0)} upstream chunks, ` +
        `every send's checks, credits and storage included) = ×${cpuRatio.toFixed(2)} of the bare proxy's ` +
        `${proxyCpuPerChunkUs.toFixed(0)} µs per chunk in the same run`,
      budget: '≤ 1.5× the bare proxy',
      met: verdict(cpuRatio <= 1.5),
      data: { cpuPerChunkUs, proxyCpuPerChunkUs, ratio: cpuRatio, serverCpuSeconds: serverCpu },
    },
    {
      what: `first token of each of those ${o.streams} chats, while they start`,
      result:
        `median ${duration(platform.ttftMedianMs)}, max ${duration(platform.ttftMaxMs)} ` +
        `(upstream directly: ${duration(direct.ttftMedianMs)}, ${duration(direct.ttftMaxMs)}; ` +
        `bare proxy: ${duration(proxied.ttftMedianMs)}, ${duration(proxied.ttftMaxMs)}); ` +
        `${platform.listenOverflows} listen-queue overflows (direct: ${direct.listenOverflows})`,
      budget: `median ≤ ${TTFT_BUDGET.medianMs} ms, max ≤ ${TTFT_BUDGET.maxMs} ms`,
      met: verdict(platform.ttftMedianMs <= TTFT_BUDGET.medianMs && platform.ttftMaxMs <= TTFT_BUDGET.maxMs),
      data: {
        medianMs: platform.ttftMedianMs,
        maxMs: platform.ttftMaxMs,
        direct: { medianMs: direct.ttftMedianMs, maxMs: direct.ttftMaxMs },
        proxy: { medianMs: proxied.ttftMedianMs, maxMs: proxied.ttftMaxMs },
      },
    },
  ];
}

/** The `/v1` burst against the chat's, in the same run: the chat's budget, and its figures beside. */
function v1Row(
  streams: number,
  v1: Burst,
  chat: Burst,
  m: { peakKb: number; cpuPerChunkUs: number; chatCpuPerChunkUs: number },
): Row {
  const ok = v1.completed >= streams && v1.maxOpen >= streams && v1.errors === 0 && m.peakKb < 400 * 1024;
  return {
    what: `${streams} concurrent \`/v1/chat/completions\` streams on one instance, against the chat's burst`,
    result:
      `${v1.completed} completed, ${v1.errors} errors, ${v1.maxOpen} open at once, all done in ${v1.seconds.toFixed(1)} s ` +
      `(chat: ${chat.seconds.toFixed(1)} s); first token median ${duration(v1.ttftMedianMs)}, max ` +
      `${duration(v1.ttftMaxMs)} (chat: ${duration(chat.ttftMedianMs)}, ${duration(chat.ttftMaxMs)}); ` +
      `CPU ${m.cpuPerChunkUs.toFixed(0)} µs per chunk (chat: ${m.chatCpuPerChunkUs.toFixed(0)} µs); ` +
      `server RSS peak ${mb(m.peakKb)}` +
      (v1.firstErrors.length > 0 ? `; first errors: ${v1.firstErrors.join(' | ')}` : ''),
    budget: 'all open at once, no errors, RSS < 400 MB',
    met: verdict(ok),
    data: { ...v1, ...m },
  };
}
