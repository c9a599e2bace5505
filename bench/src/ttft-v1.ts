import crypto from 'node:crypto';
import http from 'node:http';
import { MODEL, type BenchUser, createConversation, hasContent, isMessageEvent, postStream } from './api.js';
import type { Sqlite } from './db.js';
import { type Row, median, ms, percentile, verdict } from './stats.js';

/*
 * `/v1/chat/completions` against the chat's own send, in the same run: sequential streamed
 * requests in rotating order on a keep-alive connection, each timed to its first text (the
 * first chunk with content for `/v1`, the first `message` event for the chat). The budget:
 * the OpenAI-compatible endpoint adds no more than the chat's own time to first token.
 */

export interface V1TtftOptions {
  apiUrl: string;
  user: BenchUser;
  /** The server's database: the user gets the `api.keys` permission and a key there. */
  db: Sqlite;
  samples: number;
  warmup: number;
}

/** A personal API key for the user, written as the keys area stores it (SHA-256 of the secret). */
export function createKey(db: Sqlite, userId: number): string {
  const secret = `sk-${crypto.randomBytes(32).toString('base64url')}`;
  const now = new Date().toISOString();
  db.prepare('insert into user_permissions (user_id, permission, created_at) values (?, ?, ?)').run(
    userId,
    'api.keys',
    now,
  );
  db.prepare(
    `insert into api_keys (user_id, name, prefix, secret_hash, models, ip_allow, created_at)
     values (?, 'bench', ?, ?, '[]', '[]', ?)`,
  ).run(userId, secret.slice(0, 10), crypto.createHash('sha256').update(secret).digest('hex'), now);
  return secret;
}

export async function measureV1Ttft(o: V1TtftOptions): Promise<Row[]> {
  const secret = createKey(o.db, o.user.id);
  const conversationId = await createConversation(o.apiUrl, o.user.token, { context_length: 0 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const chat: number[] = [];
  const v1: number[] = [];
  const failures: string[] = [];
  const viaChat = async (content: string) => {
    const r = await postStream(`${o.apiUrl}/api/chat/conversations/${conversationId}/messages`, {
      agent,
      token: o.user.token,
      timeoutMs: 10_000,
      body: { content, stream: true, stream_options: { delta_only: true } },
      isFirst: isMessageEvent,
    });
    if (r.status !== 200 || r.firstAt === undefined || r.error) failures.push(`chat: ${r.status} ${r.error ?? ''}`);
    return (r.firstAt ?? r.endAt) - r.startedAt;
  };
  const viaV1 = async (content: string) => {
    const r = await postStream(`${o.apiUrl}/v1/chat/completions`, {
      agent,
      token: secret,
      timeoutMs: 10_000,
      body: { model: MODEL, stream: true, messages: [{ role: 'user', content }] },
      isFirst: hasContent,
    });
    if (r.status !== 200 || r.firstAt === undefined || r.error)
      failures.push(`/v1: ${r.status} ${r.error ?? r.body.slice(0, 200)}`);
    return (r.firstAt ?? r.endAt) - r.startedAt;
  };
  for (let i = 0; i < o.warmup + o.samples; i++) {
    const content = `What is the time to first token through the API? Sample ${i}.`;
    let c = 0;
    let v = 0;
    const steps = [async () => (c = await viaChat(content)), async () => (v = await viaV1(content))];
    for (let k = 0; k < steps.length; k++) await (steps[(i + k) % steps.length] as () => Promise<unknown>)();
    if (i < o.warmup) continue;
    chat.push(c);
    v1.push(v);
  }
  agent.destroy();
  const cMed = median(chat);
  const vMed = median(v1);
  const ratio = vMed / cMed;
  return [
    {
      what: 'TTFT of `/v1/chat/completions` against the chat’s own send, an instant upstream',
      result:
        `median ${ms(vMed)} (p99 ${ms(percentile(v1, 99))}) against ${ms(cMed)} (p99 ${ms(percentile(chat, 99))}): ` +
        `×${ratio.toFixed(2)} of the chat's, ${o.samples} sequential samples each, errors ${failures.length}`,
      budget: '≤ the chat’s own (ratio ≤ 1.00)',
      met: verdict(ratio <= 1 && failures.length === 0),
      data: {
        samples: o.samples,
        v1: vMed,
        chat: cMed,
        ratio,
        errors: failures.length,
        firstErrors: failures.slice(0, 3),
      },
    },
  ];
}
