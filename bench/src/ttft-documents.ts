import http from 'node:http';
import { type BenchUser, call, createConversation, isMessageEvent, postStream } from './api.js';
import { type Row, median, ms, percentile } from './stats.js';

/*
 * Time to first token with documents: the same question sent with no document, with a small
 * document that goes whole, and with a large one that goes by relevance (more than half of
 * the default model's 128,000-token window, so its passages are searched for each question).
 * The three are sent in rotating order, sequentially, on a keep-alive connection; the
 * documents are uploaded and read by the server's own workers first.
 */

export interface DocumentTtftOptions {
  apiUrl: string;
  user: BenchUser;
  samples: number;
  warmup: number;
}

const TOPICS = ['delivery', 'invoices', 'maintenance', 'training', 'quality', 'prices', 'notices', 'spare parts'];

/** About `words` words of plain clauses, one heading per topic section. */
function clauses(words: number, seed: number): string {
  const lines: string[] = [];
  let count = 0;
  for (let i = 0; count < words; i++) {
    const topic = TOPICS[(i + seed) % TOPICS.length] as string;
    if (i % 20 === 0) lines.push(`# Section ${i / 20 + 1}: ${topic}`);
    const line = `Clause ${i + 1}. The ${topic} of the order ${seed * 100_000 + i} follow the terms agreed for the site in writing.`;
    lines.push(line);
    count += line.split(' ').length;
  }
  return lines.join('\n');
}

async function upload(base: string, token: string, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), name);
  const res = await fetch(`${base}/api/chat/files`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await res.text();
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${body.slice(0, 300)}`);
  const id = (JSON.parse(body) as { data: { id: string } }).data.id;
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    const info = await call<{ status: string; tokens: number | null }>(
      base,
      'GET',
      `/api/chat/files/${id}`,
      undefined,
      token,
    );
    if (info.status === 'ready') return id;
    if (info.status === 'failed') throw new Error(`${name} failed to be read`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} still being read after 120 s`);
}

export async function measureDocumentTtft(o: DocumentTtftOptions): Promise<Row[]> {
  const small = await upload(o.apiUrl, o.user.token, 'small.txt', clauses(1_200, 1));
  const large = await upload(o.apiUrl, o.user.token, 'large.txt', clauses(70_000, 2));
  const variants = [
    { label: 'no document', fileIds: [] as string[], mode: 'none' },
    { label: 'a small document sent whole', fileIds: [small], mode: 'full' },
    { label: 'a large document searched by relevance', fileIds: [large], mode: 'retrieval' },
  ];
  // No history: every turn sends only its own question and documents.
  const conversations = await Promise.all(
    variants.map(() => createConversation(o.apiUrl, o.user.token, { context_length: 0 })),
  );
  for (const [k, v] of variants.entries()) {
    const plan = await call<{ mode: string }>(
      o.apiUrl,
      'POST',
      `/api/chat/conversations/${conversations[k]}/document-plan`,
      { file_ids: v.fileIds },
      o.user.token,
    );
    if (plan.mode !== v.mode) throw new Error(`${v.label}: planned ${plan.mode}, expected ${v.mode}`);
  }

  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const totals = variants.map(() => [] as number[]);
  const toInit = variants.map(() => [] as number[]);
  const failures: string[] = [];
  for (let i = 0; i < o.warmup + o.samples; i++) {
    for (let step = 0; step < variants.length; step++) {
      const k = (i + step) % variants.length;
      const r = await postStream(`${o.apiUrl}/api/chat/conversations/${conversations[k]}/messages`, {
        agent,
        token: o.user.token,
        timeoutMs: 10_000,
        body: {
          content: `What do the clauses say about delivery and prices? Sample ${i}.`,
          file_ids: variants[k]?.fileIds,
          stream: true,
          stream_options: { delta_only: true },
        },
        isFirst: isMessageEvent,
      });
      if (r.status !== 200 || r.firstAt === undefined || r.error || !r.events.includes('done'))
        failures.push(`${variants[k]?.label}: ${r.status} ${r.error ?? r.body.slice(0, 200)}`);
      if (i < o.warmup) continue;
      totals[k]?.push((r.firstAt ?? r.endAt) - r.startedAt);
      toInit[k]?.push((r.eventAt.init ?? r.endAt) - r.startedAt);
    }
  }
  agent.destroy();

  const base = median(totals[0] ?? []);
  return variants.map((v, k) => {
    const all = totals[k] ?? [];
    const med = median(all);
    return {
      what: `TTFT with documents, an instant upstream: ${v.label}`,
      result:
        `median ${ms(med)}, p99 ${ms(percentile(all, 99))}, median ${ms(median(toInit[k] ?? []))} to \`init\`` +
        (k === 0 ? ` (${o.samples} sequential samples)` : ` (${ms(med - base)} above no document)`) +
        (k === 0 ? `, errors ${failures.length}` : ''),
      budget: '—',
      met: failures.length === 0 ? '—' : 'NO',
      ...(k === 0 ? { data: { samples: o.samples, errors: failures.length, firstErrors: failures.slice(0, 3) } } : {}),
    };
  });
}
