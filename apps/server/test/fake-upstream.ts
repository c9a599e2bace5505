/**
 * A fake OpenAI-compatible upstream for integration tests, e2e and the bench: a real HTTP
 * server on 127.0.0.1 with deterministic answers. Only Node built-ins, so it can be
 * imported anywhere or started on its own:
 *
 *   node --import tsx apps/server/test/fake-upstream.ts --port 4010
 *
 * Behaviour is chosen per request by the MODEL NAME (`fake-slow`, …) or by directives in
 * the last user message (`[fake:slow]`, `[fake:delay=30]` (a non-streamed answer waits as long), `[fake:repeat=20]`):
 *   echo (default) answer at once · slow: a pause between chunks · error: HTTP 500 before output
 *   drop: closes the connection mid-stream · hang: never answers · vision: says whether an image came
 *   empty: finishes without text · length: finish_reason "length"
 *   `[fake:error-once]`: HTTP 500 the first time a text is asked, answered the next time (a retry)
 *   `[fake:ttft=150]`: the first chunk waits 150 ms (a real model's time to first token; a
 *   non-streamed answer waits as long too)
 * A request with `tools` (and `tool_choice` not "none") is answered with a call of the first
 * tool (arguments `{"city":"Paris"}`, streamed in two pieces), finish_reason "tool_calls".
 * `POST /v1/embeddings` answers deterministic vectors (`fakeEmbedding`); a model whose name holds
 * `error` answers HTTP 500, one holding `hang` never answers. Those requests are recorded in `fake.embeddingRequests`.
 * Every request is recorded, with whether the client closed the connection before the end
 * (the proof that an abort reached the upstream): `fake.requests` in process, GET /__stats outside.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { type RecordedEmbeddingRequest, embeddings } from './fake-embeddings.js';

export { FAKE_EMBEDDING_DIMS, type RecordedEmbeddingRequest, fakeEmbedding } from './fake-embeddings.js';

export const FAKE_MODES = ['echo', 'slow', 'error', 'drop', 'hang', 'vision', 'empty', 'length'] as const;
export type FakeMode = (typeof FAKE_MODES)[number];

export interface RecordedRequest {
  id: number;
  model: string;
  mode: FakeMode;
  stream: boolean;
  includeUsage: boolean;
  /** Messages exactly as received (images as data URLs). */
  messages: { role: string; content: unknown }[];
  authorization: string | undefined;
  temperature: number | undefined;
  hasImage: boolean;
  imageMime: string | undefined;
  lastUserText: string;
  /** The request body as received (what a pass-through must leave as the client wrote it). */
  body: Record<string, unknown>;
  chunksSent: number;
  /** `client-closed`: the client closed the connection before the answer ended. */
  outcome: 'pending' | 'completed' | 'client-closed' | 'dropped' | 'error';
  startedAt: number;
  endedAt: number | undefined;
}

export interface FakeUpstream {
  /** Base URL to configure as the model's API endpoint, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  embeddingRequests: RecordedEmbeddingRequest[];
  /** Resolves with the first request matching `pred` that has ended (or with any state when `ended` is false). */
  waitFor(
    pred: (r: RecordedRequest) => boolean,
    opts?: { timeoutMs?: number; ended?: boolean },
  ): Promise<RecordedRequest>;
  reset(): void;
  close(): Promise<void>;
}

export interface FakeUpstreamOptions {
  port?: number;
  host?: string;
  /** Pause between chunks in `slow` mode (default 40 ms). */
  slowDelayMs?: number;
}

/** The deterministic answer: the question echoed, then markdown with a list, code and formulas. */
export function fakeAnswer(
  lastUserText: string,
  opts: { image?: string | undefined; vision?: boolean; repeat?: number } = {},
) {
  const head = opts.vision ? `Image received: ${opts.image ? `yes (${opts.image})` : 'no'}\n\n` : '';
  const body = [
    '## Answer',
    '',
    'Here is a short list:',
    '',
    '- first item',
    '- second item',
    '',
    '```ts',
    'function add(a: number, b: number): number {',
    '  return a + b;',
    '}',
    '```',
    '',
    'The formula $E = mc^2$ and the block:',
    '',
    '$$a^2 + b^2 = c^2$$',
    '',
  ].join('\n');
  return `${head}Echo: ${lastUserText}\n\n${body.repeat(Math.max(1, opts.repeat ?? 1))}`;
}

/** Splits text into word-sized chunks, whitespace kept, so that joining them gives the text back. */
export const chunksOf = (text: string) => text.match(/\s*\S+\s*/g) ?? [];

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('')
      : '';

function directive(text: string, name: string): string | undefined {
  return (
    new RegExp(`\\[fake:${name}(?:=(\\w+))?\\]`).exec(text)?.[1] ?? (text.includes(`[fake:${name}]`) ? '' : undefined)
  );
}

function modeOf(model: string, text: string): FakeMode {
  for (const m of FAKE_MODES) if (model === `fake-${m}` || directive(text, m) !== undefined) return m;
  return 'echo';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeUpstream(opts: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const embeddingRequests: RecordedEmbeddingRequest[] = [];
  /** Texts asked once already with `[fake:error-once]`. */
  const failedOnce = new Set<string>();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let nextId = 1;
  const end = (r: RecordedRequest, outcome: RecordedRequest['outcome']) => {
    if (r.outcome !== 'pending') return;
    r.outcome = outcome;
    r.endedAt = Date.now();
    events.emit('update');
  };

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'GET' && url.startsWith('/__stats')) {
      return json(res, 200, { count: requests.length, requests });
    }
    if (req.method === 'POST' && url.startsWith('/__reset')) {
      requests.length = 0;
      return json(res, 200, { reset: true });
    }
    if (req.method === 'GET' && /\/models\/?$/.test(url)) {
      return json(res, 200, {
        object: 'list',
        data: FAKE_MODES.map((m) => ({ id: `fake-${m}`, object: 'model', owned_by: 'fake' })),
      });
    }
    if (req.method === 'POST' && /\/embeddings\/?$/.test(url)) return embeddings(req, res, embeddingRequests);
    if (req.method !== 'POST' || !/\/chat\/completions\/?$/.test(url))
      return json(res, 404, { error: { message: 'not found' } });
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      } catch {
        return json(res, 400, { error: { message: 'invalid JSON' } });
      }
      const messages = (Array.isArray(body.messages) ? body.messages : []) as RecordedRequest['messages'];
      const lastUser = [...messages].reverse().find((m) => m.role === 'user');
      const lastUserText = textOf(lastUser?.content);
      const image = JSON.stringify(lastUser?.content ?? '').match(/data:(image\/[\w+.-]+);base64,/);
      const model = typeof body.model === 'string' ? body.model : '';
      const failOnce = directive(lastUserText, 'error-once') !== undefined && !failedOnce.has(lastUserText);
      if (failOnce) failedOnce.add(lastUserText);
      const r: RecordedRequest = {
        id: nextId++,
        model,
        mode: failOnce ? 'error' : modeOf(model, lastUserText),
        stream: body.stream === true,
        includeUsage: (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
        messages,
        authorization: req.headers.authorization,
        temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
        hasImage: !!image,
        imageMime: image?.[1],
        lastUserText,
        body,
        chunksSent: 0,
        outcome: 'pending',
        startedAt: Date.now(),
        endedAt: undefined,
      };
      requests.push(r);
      events.emit('update');
      res.on('finish', () => end(r, 'completed'));
      res.on('close', () => end(r, res.writableFinished ? 'completed' : 'client-closed'));
      void answer(r, res, messages, opts.slowDelayMs ?? 40).catch(() => end(r, 'error'));
    });
  });

  async function answer(
    r: RecordedRequest,
    res: http.ServerResponse,
    messages: RecordedRequest['messages'],
    slowMs: number,
  ) {
    if (r.mode === 'hang') return; // never answers; 'close' records the client giving up
    if (r.mode === 'error') {
      end(r, 'error');
      return json(res, 500, { error: { message: 'fake upstream failure FAKE-UPSTREAM-SECRET', type: 'server_error' } });
    }
    const repeat = Number(directive(r.lastUserText, 'repeat') || 1);
    const delay = Number(directive(r.lastUserText, 'delay') || (r.mode === 'slow' || r.mode === 'drop' ? slowMs : 0));
    const text =
      r.mode === 'empty' ? '' : fakeAnswer(r.lastUserText, { vision: r.mode === 'vision', image: r.imageMime, repeat });
    const finish = r.mode === 'length' ? 'length' : 'stop';
    const promptChars = messages.reduce((n, m) => n + textOf(m.content).length, 0);
    const chunks = chunksOf(text);
    const usage = {
      prompt_tokens: Math.ceil(promptChars / 4),
      completion_tokens: chunks.length,
      total_tokens: Math.ceil(promptChars / 4) + chunks.length,
    };
    const firstTokenMs = Number(directive(r.lastUserText, 'ttft') || 0);
    const base = { id: `chatcmpl-fake-${r.id}`, created: Math.floor(Date.now() / 1000), model: r.model };
    const tool = toolOf(r.body);
    if (tool) return toolCall(r, res, base, tool, usage);
    if (!r.stream) {
      // An explicit `[fake:delay=N]` makes a whole answer take as long as its stream would.
      const wait = Number(directive(r.lastUserText, 'delay') || 0) * chunks.length + firstTokenMs;
      if (wait > 0) await sleep(wait);
      if (res.destroyed) return;
      const message = { role: 'assistant', content: text };
      return json(res, 200, {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    // The headers come at once and the first chunk (role, then text) after the model's start-up, as from a real one.
    if (firstTokenMs > 0) {
      res.flushHeaders();
      await sleep(firstTokenMs);
      if (res.destroyed) return;
    }
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] });
    chunk({ role: 'assistant', content: '' });
    const dropAt = Math.max(1, Math.floor(chunks.length / 3));
    for (const piece of chunks) {
      if (res.destroyed) return;
      if (r.mode === 'drop' && r.chunksSent >= dropAt) {
        end(r, 'dropped');
        res.socket?.destroy();
        return;
      }
      chunk({ content: piece });
      r.chunksSent += 1;
      if (delay > 0) await sleep(delay);
    }
    if (res.destroyed) return;
    chunk({}, finish);
    if (r.includeUsage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage });
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    requests,
    embeddingRequests,
    reset: () => {
      requests.length = 0;
      embeddingRequests.length = 0;
    },
    waitFor(pred, { timeoutMs = 10_000, ended = true } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = requests.find((r) => pred(r) && (!ended || r.outcome !== 'pending'));
          if (!hit) return;
          clearTimeout(timer);
          events.off('update', check);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          events.off('update', check);
          reject(new Error(`fake upstream: no matching request within ${timeoutMs} ms`));
        }, timeoutMs);
        events.on('update', check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The tool a request asks to be called: its first, unless `tool_choice` is "none". */
function toolOf(body: Record<string, unknown>): string | undefined {
  if (!Array.isArray(body.tools) || body.tools.length === 0 || body.tool_choice === 'none') return undefined;
  const name = (body.tools[0] as { function?: { name?: unknown } }).function?.name;
  return typeof name === 'string' ? name : undefined;
}

/** Answers with a call of `name`, as a whole message or as tool-call deltas. */
function toolCall(
  r: RecordedRequest,
  res: http.ServerResponse,
  base: Record<string, unknown>,
  name: string,
  usage: Record<string, number>,
) {
  const id = `call_fake_${r.id}`;
  const args = '{"city":"Paris"}';
  if (!r.stream) {
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
    };
    return json(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
      usage,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] });
  chunk({ role: 'assistant', content: null });
  chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args.slice(0, 8) } }] });
  chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(8) } }] });
  r.chunksSent = 2;
  chunk({}, 'tool_calls');
  if (r.includeUsage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage });
  res.end('data: [DONE]\n\n');
}

export function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 4010;
  const fake = await startFakeUpstream({ port });
  process.stdout.write(`fake upstream listening on ${fake.url}\n`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
