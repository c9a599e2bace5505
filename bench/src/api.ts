import http from 'node:http';

/*
 * The few API calls the measurements need. Setup goes through fetch; timed requests
 * and streams use node:http with an explicit agent (see `postStream`).
 */

export interface BenchUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
  /** The whole login result, as the web app keeps it. */
  session: Record<string, unknown>;
}

interface Envelope<T> {
  data: T;
}

export async function call<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as Envelope<T>).data;
}

export async function login(base: string, account: string, password: string): Promise<Record<string, unknown>> {
  return call<Record<string, unknown>>(base, 'POST', '/api/auth/login', { account, password });
}

let serial = 0;

/** Registers a fresh user (1,000 credits by default) and signs in. */
export async function createUser(base: string, prefix: string): Promise<BenchUser> {
  serial += 1;
  const username = `${prefix}_${serial}_${Date.now().toString(36)}`.slice(0, 20);
  const email = `${username.toLowerCase()}@bench.example.com`;
  const password = 'bench-password';
  const { id } = await call<{ id: number }>(base, 'POST', '/api/auth/register', {
    email,
    username,
    password,
    confirmPassword: password,
  });
  const session = await login(base, email, password);
  return { id, username, email, password, token: session.accessToken as string, session };
}

export const MODEL = 'gpt-4.1-mini-op';

export async function createConversation(
  base: string,
  token: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const c = await call<{ id: string }>(base, 'POST', '/api/chat/conversations', { model_name: MODEL, ...body }, token);
  return c.id;
}

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function inBatches<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface StreamOutcome {
  /** performance.now() just before the request was made. */
  startedAt: number;
  status: number;
  /** Event names in order of arrival (`message` counted once per event). */
  events: string[];
  /** performance.now() when the response headers arrived. */
  headersAt: number;
  /** performance.now() when each kind of event first arrived. */
  eventAt: Record<string, number>;
  /** performance.now() when the first block matching `isFirst` arrived. */
  firstAt: number | undefined;
  endAt: number;
  /** The body when it was not an event stream (e.g. a JSON refusal). */
  body: string;
  error: string | undefined;
}

/**
 * POSTs JSON and reads a text/event-stream answer (ours or the upstream's), noting when
 * the first block that `isFirst` accepts arrived. Never rejects; network errors land in
 * `error`. `timeoutMs` bounds the whole exchange.
 */
export function postStream(
  url: string,
  opts: {
    agent: http.Agent;
    body: unknown;
    token?: string;
    timeoutMs: number;
    isFirst: (event: string, data: string) => boolean;
    onEvent?: (event: string) => void;
  },
): Promise<StreamOutcome> {
  const out: StreamOutcome = {
    startedAt: performance.now(),
    status: 0,
    events: [],
    eventAt: {},
    headersAt: 0,
    firstAt: undefined,
    endAt: 0,
    body: '',
    error: undefined,
  };
  return new Promise<StreamOutcome>((resolve) => {
    const payload = JSON.stringify(opts.body);
    const req = http.request(url, {
      method: 'POST',
      agent: opts.agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        accept: 'text/event-stream',
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    const finish = (error?: string) => {
      clearTimeout(timer);
      out.endAt = performance.now();
      if (error && !out.error) out.error = error;
      resolve(out);
    };
    req.on('error', (err) => finish(err.message));
    req.on('response', (res) => {
      out.status = res.statusCode ?? 0;
      out.headersAt = performance.now();
      const sse = String(res.headers['content-type']).startsWith('text/event-stream');
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!sse) {
          out.body += chunk;
          return;
        }
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (!data) continue; // comment (heartbeat)
          out.events.push(event);
          out.eventAt[event] ??= performance.now();
          opts.onEvent?.(event);
          if (out.firstAt === undefined && opts.isFirst(event, data)) out.firstAt = performance.now();
        }
      });
      res.on('end', () => finish());
      res.on('error', (err) => finish(err.message));
      res.on('aborted', () => finish('response aborted'));
    });
    req.end(payload);
  });
}

/** True for an upstream (OpenAI) chunk that carries answer text. */
export function hasContent(_event: string, data: string): boolean {
  if (data === '[DONE]') return false;
  const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
  return !!chunk.choices?.[0]?.delta?.content;
}

export const isMessageEvent = (event: string) => event === 'message';
