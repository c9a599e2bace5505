import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AI_PROVIDERS, type AiProvider } from '@aiplatform/contracts';
import { generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrompt } from './prompt.js';
import { createLanguageModel } from './providers.js';

/**
 * Every provider adapter gets all images of a question as image parts, in order. The
 * upstream here only records the request body and refuses it: the shape sent is what counts.
 */
describe('images in the request of every provider', () => {
  const bodies: unknown[] = [];
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(parts).toString('utf8')));
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"recorded"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Four distinct payloads; each carries its number so the order can be read back. */
  const images = [1, 2, 3, 4].map((n) => ({ storedName: `img-${n}.png`, mime: 'image/png' }));
  const bytesOf = (name: string) => Buffer.from(`image bytes ${name}`);
  const base64 = images.map((i) => bytesOf(i.storedName).toString('base64'));

  /** The base64 payloads of the request's images, in the order they appear in it. */
  function imagesSent(provider: AiProvider, body: unknown): string[] {
    const text = JSON.stringify(body);
    const found = base64.map((b) => ({ b, at: text.indexOf(b) })).filter((f) => f.at >= 0);
    expect(found, `${provider}: every image is in the request`).toHaveLength(base64.length);
    return found.sort((x, y) => x.at - y.at).map((f) => f.b);
  }

  it.each(AI_PROVIDERS)('%s: four images, in order, after the question text', async (provider) => {
    const prompt = await buildPrompt([{ role: 'user', content: 'what are these?', images }], {
      vision: true,
      loadImage: (name, mime) => Promise.resolve({ data: bytesOf(name), mediaType: mime }),
    });
    const model = createLanguageModel({ provider, modelId: 'vision-model', apiKey: 'k', endpoint: url });
    bodies.length = 0;
    await expect(generateText({ model, messages: prompt.messages, maxRetries: 0 })).rejects.toThrow();
    expect(bodies).toHaveLength(1);
    const sent = JSON.stringify(bodies[0]);
    expect(sent.indexOf('what are these?')).toBeLessThan(sent.indexOf(base64[0] ?? '?'));
    expect(imagesSent(provider, bodies[0])).toEqual(base64);
  });

  it('a text-only model gets the text and no image; an image-only question keeps a marker', async () => {
    const loadImage = () => Promise.reject(new Error('a text model never loads images'));
    const prompt = await buildPrompt(
      [
        { role: 'user', content: 'with text', images },
        { role: 'user', content: '', images },
      ],
      { vision: false, loadImage },
    );
    expect(prompt.messages).toEqual([
      { role: 'user', content: 'with text' },
      { role: 'user', content: '[image]' },
    ]);
  });
});
