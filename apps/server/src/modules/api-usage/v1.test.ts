import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHolder } from '../../../test/api-key-helpers.js';
import { addModel, createChatApp, eventually, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import { type FakeUpstream, fakeAnswer, fakeEmbedding } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { apiLedger, apiTurns, openaiFor, setBalanceForTest, v1Base } from '../../../test/v1-helpers.js';

/** The OpenAI-compatible endpoint, through the official `openai` client against a real port. */
describe('/v1 with the openai client', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    await addModel(t, fake, { name: 'fake-embed', kind: 'embedding' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('lists the models the key reaches: its owner’s, narrowed to the key’s list', async () => {
    const all = await keyHolder(t);
    const ids = (await openaiFor(t, all.secret).models.list()).data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['fake-echo', 'fake-slow', 'fake-embed']));
    expect((await openaiFor(t, all.secret).models.list()).data[0]).toMatchObject({ object: 'model' });
    const one = await keyHolder(t, { models: ['fake-echo'] });
    expect((await openaiFor(t, one.secret).models.list()).data.map((m) => m.id)).toEqual(['fake-echo']);
  });

  it('answers a whole completion with usage, charged at the model’s price to the key', async () => {
    const k = await keyHolder(t);
    const r = await openaiFor(t, k.secret).chat.completions.create({
      model: 'fake-echo',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(r.object).toBe('chat.completion');
    expect(r.choices[0]?.message.content).toBe(fakeAnswer('hello there'));
    expect(r.usage?.total_tokens).toBeGreaterThan(0);
    const rows = await apiLedger(t, k.userId);
    expect(rows).toEqual([
      expect.objectContaining({ transaction_type: 'chat_consume', amount: -10, source: 'api', api_key_id: k.id }),
    ]);
    const [turn] = await apiTurns(t, k.userId);
    expect(turn).toMatchObject({ status: 'complete', cost: 10, api_key_id: k.id, tokens: r.usage?.total_tokens });
    expect(rows[0]?.reference_id).toBe(turn?.id);
    expect((await t.userRow(k.userId)).credits_used).toBe(10);
  });

  it('streams chunks, with the usage chunk last when asked for', async () => {
    const k = await keyHolder(t);
    const client = openaiFor(t, k.secret);
    const stream = await client.chat.completions.create({
      model: 'fake-echo',
      messages: [{ role: 'user', content: 'stream me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const c of stream) {
      chunks.push(c);
      text += c.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe(fakeAnswer('stream me'));
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('stop');

    // Without include_usage no usage chunk reaches the client (the upstream was asked for one all the same).
    const plain = await client.chat.completions.create({
      model: 'fake-echo',
      messages: [{ role: 'user', content: 'no usage please' }],
      stream: true,
    });
    const seen: OpenAI.ChatCompletionChunk[] = [];
    for await (const c of plain) seen.push(c);
    expect(seen.some((c) => c.usage)).toBe(false);
    expect(fake.requests.find((r) => r.lastUserText === 'no usage please')?.includeUsage).toBe(true);
    const turns = await apiTurns(t, k.userId);
    expect(turns.map((x) => x.status)).toEqual(['complete', 'complete']);
    expect(turns[0]?.tokens).toBe(last.usage?.total_tokens);
  });

  const tools: OpenAI.ChatCompletionTool[] = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ];

  it('passes tools and settings through and relays tool-call deltas', async () => {
    const k = await keyHolder(t);
    const client = openaiFor(t, k.secret);
    const stream = await client.chat.completions.create({
      model: 'fake-echo',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools,
      tool_choice: 'auto',
      temperature: 0.3,
      max_tokens: 50,
      response_format: { type: 'text' },
      stream: true,
    });
    let name = '';
    let args = '';
    let finish: string | null | undefined;
    for await (const c of stream) {
      const call = c.choices[0]?.delta.tool_calls?.[0];
      name += call?.function?.name ?? '';
      args += call?.function?.arguments ?? '';
      finish ??= c.choices[0]?.finish_reason;
    }
    expect({ name, args: JSON.parse(args) as unknown, finish }).toEqual({
      name: 'get_weather',
      args: { city: 'Paris' },
      finish: 'tool_calls',
    });
    const sent = fake.requests.find((r) => r.lastUserText === 'weather in Paris?')!.body;
    expect(sent).toMatchObject({
      tools,
      tool_choice: 'auto',
      temperature: 0.3,
      max_tokens: 50,
      response_format: { type: 'text' },
    });
    // A tool call is output: the turn is charged like an answer.
    const whole = await client.chat.completions.create({
      model: 'fake-echo',
      messages: [{ role: 'user', content: 'weather again?' }],
      tools,
    });
    expect(whole.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    expect((await apiTurns(t, k.userId)).map((x) => x.status)).toEqual(['complete', 'complete']);
    expect((await t.userRow(k.userId)).credits_used).toBe(20);
  });

  it('embeds with an embedding model, priced per request', async () => {
    const k = await keyHolder(t);
    const r = await openaiFor(t, k.secret).embeddings.create({
      model: 'fake-embed',
      input: ['a car', 'a doctor'],
      encoding_format: 'float',
    });
    expect(r.data.map((d) => d.embedding)).toEqual([fakeEmbedding('a car'), fakeEmbedding('a doctor')]);
    expect(await apiLedger(t, k.userId)).toEqual([
      expect.objectContaining({ amount: -10, source: 'api', api_key_id: k.id, model_name: 'fake-embed' }),
    ]);
    // An embedding model answers no chat, and a chat model no embeddings: bad requests, nothing charged.
    const client = openaiFor(t, k.secret);
    await expect(
      client.chat.completions.create({ model: 'fake-embed', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(client.embeddings.create({ model: 'fake-echo', input: 'x' })).rejects.toMatchObject({ status: 400 });
    expect((await t.userRow(k.userId)).credits_used).toBe(10);
  });

  it('refuses in OpenAI’s error shape: bad key, model not allowed, unknown model, no credits, bad body', async () => {
    const k = await keyHolder(t, { models: ['fake-echo'] });
    const ask = (client: OpenAI, model = 'fake-echo') =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    await expect(ask(openaiFor(t, 'sk-not-a-key'))).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
      constructor: OpenAI.AuthenticationError,
    });
    await expect(ask(openaiFor(t, k.secret), 'fake-slow')).rejects.toMatchObject({
      status: 403,
      code: 'model_not_allowed',
    });
    await expect(ask(openaiFor(t, k.secret), 'no-such-model')).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
    await expect(
      openaiFor(t, k.secret).chat.completions.create({ model: 'fake-echo', messages: [] }),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_request_error' });
    // Malformed JSON and a body that is not an object: 400 in the same shape, never a 5xx.
    for (const body of ['{"model":', '[1,2]', '"text"']) {
      const res = await fetch(`${v1Base(t)}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${k.secret}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    }
    // Out of credits: 429 insufficient_quota, nothing charged.
    await setBalanceForTest(t, k.userId, 5);
    const refusal = await ask(openaiFor(t, k.secret)).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(OpenAI.RateLimitError);
    expect(refusal).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(await apiLedger(t, k.userId)).toEqual([]);
    expect(await apiTurns(t, k.userId)).toEqual([]);
  });

  it('refunds a request whose upstream failed before any output, and says so as a 502', async () => {
    const k = await keyHolder(t);
    const client = openaiFor(t, k.secret);
    await expect(
      client.chat.completions.create({ model: 'fake-error', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 502 });
    await expect(
      client.chat.completions.create({ model: 'fake-error', messages: [{ role: 'user', content: 'y' }], stream: true }),
    ).rejects.toMatchObject({ status: 502 });
    const rows = await apiLedger(t, k.userId);
    expect(rows.map((r) => [r.transaction_type, r.amount])).toEqual([
      ['chat_consume', -10],
      ['system_refund', 10],
      ['chat_consume', -10],
      ['system_refund', 10],
    ]);
    expect((await apiTurns(t, k.userId)).map((x) => x.status)).toEqual(['refunded', 'refunded']);
    expect((await t.userRow(k.userId)).credits_used).toBe(0);
    await eventually(async () => ((await t.userRow(k.userId)).credits_used === 0 ? true : undefined));
  });
});
