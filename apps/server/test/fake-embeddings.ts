import type http from 'node:http';
import { json } from './fake-upstream.js';

/* The fake upstream's `/v1/embeddings`: vectors made from the words of each input. */

export interface RecordedEmbeddingRequest {
  model: string;
  inputs: string[];
  authorization: string | undefined;
  status: number;
}

/** Words the fake embeds as one meaning, so a question can match a passage sharing none of its words. */
const FAKE_SYNONYMS: readonly (readonly string[])[] = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles'],
  ['doctor', 'doctors', 'physician', 'physicians'],
  ['refund', 'refunds', 'reimbursement', 'repayment'],
  ['fee', 'fees', 'charge', 'charges', 'price'],
];
export const FAKE_EMBEDDING_DIMS = 256;

/** A hashed bag of words (synonyms folded together): texts sharing words or meanings point alike. */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMS).fill(0);
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const word = FAKE_SYNONYMS.find((s) => s.includes(raw))?.[0] ?? raw;
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
    v[h % FAKE_EMBEDDING_DIMS]! += 1;
  }
  return v;
}

/** Answers an embeddings request (models named with `error` fail, with `hang` never answer) and records it. */
export function embeddings(req: http.IncomingMessage, res: http.ServerResponse, log: RecordedEmbeddingRequest[]) {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    let body: { model?: unknown; input?: unknown };
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
    } catch {
      return json(res, 400, { error: { message: 'invalid JSON' } });
    }
    const model = typeof body.model === 'string' ? body.model : '';
    const inputs = (Array.isArray(body.input) ? body.input : [body.input]).map(String);
    const status = model.includes('error') ? 500 : model.includes('hang') ? 0 : 200;
    log.push({ model, inputs, authorization: req.headers.authorization, status });
    if (status === 0) return; // never answers: the client has to give up
    if (status !== 200) return json(res, 500, { error: { message: 'fake embeddings failure', type: 'server_error' } });
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) }));
    const tokens = inputs.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
    json(res, 200, { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  });
}
