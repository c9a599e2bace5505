import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createUser } from './api.js';
import { startServer } from './server-process.js';
import { type Row, percentile, verdict } from './stats.js';

/*
 * "A 200-page PDF ready for questions": from the upload's answer to the file reported
 * ready (text extracted in the server's worker threads, cut into passages, counted in
 * tokens and written to the full-text index), on the compiled server. Meanwhile a probe
 * times /api/health, which must stay quick while workers read the document.
 */

const WORDS = (
  'contract supplier delivery invoice warranty service maintenance payment schedule quality ' +
  'report annex clause party notice term period price review equipment training safety site ' +
  'order goods inspection damage carrier manual operator quarter plant figure issue change'
).split(' ');

/** A text-heavy PDF: `pages` pages of 40 lines of about 90 characters (some 500 tokens each). */
async function makeBenchPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  let seed = 7;
  const word = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return WORDS[seed % WORDS.length] as string;
  };
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`Section ${p}`, { x: 40, y: 800, size: 14, font });
    for (let l = 0; l < 40; l++) {
      const line = Array.from({ length: 12 }, word).join(' ');
      page.drawText(line, { x: 40, y: 770 - l * 18, size: 10, font });
    }
  }
  return Buffer.from(await pdf.save());
}

interface FileState {
  status: string;
  pages: number | null;
  tokens: number | null;
  error: string | null;
}

async function upload(base: string, token: string, pdf: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), name);
  const res = await fetch(`${base}/api/chat/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { id: string } }).data.id;
}

async function state(base: string, token: string, id: string): Promise<FileState> {
  const res = await fetch(`${base}/api/chat/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: FileState }).data;
}

/** Uploads and waits for ready; the health probe's times while it waited. */
async function timeToReady(base: string, token: string, pdf: Buffer, name: string) {
  const started = performance.now();
  const id = await upload(base, token, pdf, name);
  const health: number[] = [];
  for (;;) {
    const s = await state(base, token, id);
    if (s.status !== 'processing') {
      if (s.status !== 'ready') throw new Error(`document ${s.status}: ${s.error}`);
      return { seconds: (performance.now() - started) / 1000, state: s, health };
    }
    if (performance.now() - started > 120_000) throw new Error('document not ready in 120 s');
    const t0 = performance.now();
    await fetch(`${base}/api/health`).then((r) => r.arrayBuffer());
    health.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function measureDocumentReady(o: {
  root: string;
  pages: number;
  runs: number;
  budgetS: number;
}): Promise<Row[]> {
  const server = await startServer(o.root);
  try {
    const user = await createUser(server.url, 'docs');
    const pdf = await makeBenchPdf(o.pages);
    const runs = [];
    // The first run starts the worker threads too, as the first upload after a start does.
    for (let i = 0; i < o.runs; i++) runs.push(await timeToReady(server.url, user.token, pdf, `manual-${i}.pdf`));
    const seconds = runs.map((r) => r.seconds);
    const worst = Math.max(...seconds);
    const health = runs.flatMap((r) => r.health);
    const first = runs[0]?.state;
    return [
      {
        what: `documents: a ${o.pages}-page PDF (${(pdf.length / 1024 / 1024).toFixed(1)} MB, ${first?.tokens?.toLocaleString('en-US')} tokens) ready for questions`,
        result: `first ${seconds[0]?.toFixed(1)} s (worker start included), then ${seconds
          .slice(1)
          .map((s) => s.toFixed(1))
          .join(' s, ')} s`,
        budget: `≤ ${o.budgetS} s`,
        met: verdict(worst <= o.budgetS && first?.pages === o.pages),
        data: { seconds, pages: first?.pages, tokens: first?.tokens, bytes: pdf.length },
      },
      {
        what: 'documents: /api/health while the document is read',
        result: `median ${percentile(health, 50).toFixed(1)} ms, p95 ${percentile(health, 95).toFixed(1)} ms (${health.length} probes)`,
        budget: '—',
        met: '—',
        data: { health },
      },
    ];
  } finally {
    await server.stop();
  }
}
