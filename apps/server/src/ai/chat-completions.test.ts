import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { type ModelMessage, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, chunksOf, fakeAnswer, startFakeUpstream } from '../../test/fake-upstream.js';
import {
  type ChatCompletionsTarget,
  UpstreamError,
  chatCompletionsBody,
  streamChatCompletions,
} from './chat-completions.js';
import { chatCompletionsTargetOf, createLanguageModel } from './providers.js';
import { RedirectRefusedError } from './upstream-fetch.js';

const listen = async (server: http.Server | net.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
/** Closes a test server, kept-alive connections from the relay's pool included. */
const close = (server: http.Server | net.Server, sockets: net.Socket[] = []) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    if (server instanceof http.Server) server.closeAllConnections();
    for (const socket of sockets) socket.destroy();
  });

const targetAt = (baseUrl: string, modelId = 'gpt-4.1-mini'): ChatCompletionsTarget => ({
  url: new URL(`${baseUrl}/chat/completions`),
  modelId,
  headers: { authorization: 'Bearer sk-test' },
});

/** Streams one answer; returns its pieces and outcome. */
async function relay(target: ChatCompletionsTarget, question: string, signal = new AbortController().signal) {
  const pieces: string[] = [];
  let firstBytes = 0;
  const end = await streamChatCompletions(
    target,
    { system: undefined, messages: [{ role: 'user', content: question }], temperature: 0 },
    signal,
    { onText: (t) => pieces.push(t), onFirstByte: () => (firstBytes += 1) },
  );
  return { pieces, firstBytes, end };
}

describe('which models take the lean relay', () => {
  const build = (provider: 'openai' | 'openai_compatible' | 'anthropic' | 'google', modelId: string) =>
    chatCompletionsTargetOf(createLanguageModel({ provider, modelId, apiKey: 'k', endpoint: 'http://127.0.0.1:1/v1' }));

  it('Chat Completions models do, at their endpoint; reasoning models and other protocols keep the SDK', () => {
    expect(build('openai', 'gpt-4.1-mini')?.url.href).toBe('http://127.0.0.1:1/v1/chat/completions');
    expect(build('openai_compatible', 'deepseek-chat')?.headers).toEqual({ authorization: 'Bearer k' });
    expect(build('openai', 'gpt-5-chat-latest')).toBeDefined();
    for (const reasoning of ['o3-mini', 'o1', 'gpt-5', 'gpt-5.1-mini'])
      expect(build('openai', reasoning)).toBeUndefined();
    expect(build('anthropic', 'claude-sonnet-4')).toBeUndefined();
    expect(build('google', 'gemini-2.5-flash')).toBeUndefined();
  });
});

describe('the request', () => {
  it('carries the same messages, model and parameters as the SDK adapter sends', async () => {
    const bodies: Record<string, unknown>[] = [];
    const server = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>);
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"recorded"}}');
      });
    });
    const url = await listen(server);
    try {
      const messages: ModelMessage[] = [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is in these?' },
            { type: 'image', image: Buffer.from('one'), mediaType: 'image/png' },
            { type: 'image', image: Buffer.from('two'), mediaType: 'image/jpeg' },
          ],
        },
      ];
      const model = createLanguageModel({ provider: 'openai_compatible', modelId: 'm', apiKey: 'k', endpoint: url });
      const sdk = streamText({
        model,
        system: 'be brief',
        messages,
        temperature: 0.3,
        maxRetries: 0,
        onError: () => {},
      });
      for await (const part of sdk.fullStream) void part;
      const lean = JSON.parse(chatCompletionsBody('m', { system: 'be brief', messages, temperature: 0.3 })) as Record<
        string,
        unknown
      >;
      const fromSdk = bodies[0] as Record<string, unknown>;
      for (const key of ['model', 'temperature', 'stream', 'stream_options'])
        expect(lean[key], key).toEqual(fromSdk[key]);
      // The SDK sends a text-only user turn as a plain string; the content is the same.
      type Sent = { role: string; content: string | { type: string; text?: string }[] };
      const normalised = (m: Sent) => {
        const only = Array.isArray(m.content) && m.content.length === 1 ? m.content[0] : undefined;
        return only?.type === 'text' ? { role: m.role, content: only.text } : m;
      };
      expect((lean.messages as Sent[]).map(normalised)).toEqual((fromSdk.messages as Sent[]).map(normalised));
    } finally {
      await close(server);
    }
  });
});

describe('streaming from an OpenAI-compatible upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ slowDelayMs: 30 });
  });
  afterAll(() => fake.close());

  it('hands on every piece in order, with the finish reason and the reported usage', async () => {
    const { pieces, firstBytes, end } = await relay(targetAt(fake.url), 'hello there');
    expect(pieces.join('')).toBe(chunksOf(fakeAnswer('hello there')).join(''));
    expect(pieces.length).toBeGreaterThan(5);
    expect(firstBytes).toBe(pieces.length);
    expect(end.finishReason).toBe('stop');
    expect(end.usage?.totalTokens).toBeGreaterThan(0);
    const recorded = fake.requests.at(-1);
    expect(recorded?.includeUsage).toBe(true);
    expect(recorded?.authorization).toBe('Bearer sk-test');
  });

  it('reports a length cut-off as such', async () => {
    const { end } = await relay(targetAt(fake.url), 'long one [fake:length]');
    expect(end.finishReason).toBe('length');
  });

  it('an HTTP error rejects with its status', async () => {
    const error = await relay(targetAt(fake.url), 'break [fake:error]').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).statusCode).toBe(500);
  });

  it('a connection dropped mid-answer rejects after the pieces that came', async () => {
    const pieces: string[] = [];
    const error = await streamChatCompletions(
      targetAt(fake.url),
      { system: undefined, messages: [{ role: 'user', content: 'cut [fake:drop]' }], temperature: 0 },
      new AbortController().signal,
      { onText: (t) => pieces.push(t), onFirstByte: () => {} },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(pieces.length).toBeGreaterThan(0);
  });

  it('an abort closes the upstream connection at once', async () => {
    const ac = new AbortController();
    const pieces: string[] = [];
    const pending = streamChatCompletions(
      targetAt(fake.url),
      { system: undefined, messages: [{ role: 'user', content: 'take your time [fake:slow]' }], temperature: 0 },
      ac.signal,
      {
        onText: (t) => {
          pieces.push(t);
          if (pieces.length === 2) ac.abort('client');
        },
        onFirstByte: () => {},
      },
    );
    await expect(pending).rejects.toThrow();
    const recorded = await fake.waitFor((r) => r.lastUserText.includes('take your time'));
    expect(recorded.outcome).toBe('client-closed');
    expect(pieces).toHaveLength(2);
  });
});

describe('tolerance', () => {
  it('a kept-alive connection the upstream closed meanwhile is retried once on a new one', async () => {
    // Answers the first request on each connection, then drops the connection when a
    // second request arrives on it: what an upstream's idle timeout looks like from here.
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => {
      sockets.push(socket);
      let requests = 0;
      socket.on('data', (data) => {
        if (!data.toString('latin1').includes('POST ')) return;
        requests += 1;
        if (requests > 1) return void socket.destroy();
        const sse = 'data: {"choices":[{"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${sse.length}\r\nconnection: keep-alive\r\n\r\n${sse}`,
        );
      });
    });
    const url = await listen(server);
    try {
      expect((await relay(targetAt(url), 'one')).pieces).toEqual(['ok']);
      expect((await relay(targetAt(url), 'two')).pieces).toEqual(['ok']);
      expect(sockets).toHaveLength(2);
    } finally {
      await close(server, sockets);
    }
  });

  it('a server that ignores `stream: true` and answers in one JSON body still works', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { content: 'whole answer' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      );
    });
    const url = await listen(server);
    try {
      const { pieces, end } = await relay(targetAt(url), 'q');
      expect(pieces).toEqual(['whole answer']);
      expect(end.usage?.totalTokens).toBe(5);
    } finally {
      await close(server);
    }
  });

  it('an error chunk in the stream rejects with its message', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"error":{"message":"overloaded"}}\n\n');
    });
    const url = await listen(server);
    try {
      await expect(relay(targetAt(url), 'q')).rejects.toThrow('overloaded');
    } finally {
      await close(server);
    }
  });

  it('a redirect is refused as such, naming where it pointed (the key stays here)', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(307, { location: '/elsewhere/chat/completions' });
      res.end();
    });
    const url = await listen(server);
    try {
      const err = await relay(targetAt(url), 'q').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RedirectRefusedError);
      expect(err).toMatchObject({ statusCode: 307, location: `${url}/elsewhere/chat/completions` });
    } finally {
      await close(server);
    }
  });
});
