import type { NonStreamAnswer, UploadedImage } from '@aiplatform/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { expect } from 'vitest';
import { createConversation } from './chat-helpers.js';
import { PNG_1PX, type TestApp, multipartFile } from './test-app.js';

/** A person with some of everything an export holds and an erasure removes. */
export interface Stocked {
  id: number;
  email: string;
  password: string;
  token: string;
  conversationId: string;
  image: UploadedImage;
  imageBytes: Buffer;
  /** Text that appears only in this person's messages. */
  marker: string;
}

/**
 * Signs a person up and gives them a conversation (a question with an image, two versions of
 * the answer, a draft), a share link of it, a personal prompt template and a personal
 * knowledge base. `marker` is written into the question, so another person's export can be
 * searched for it.
 */
export async function stockedPerson(t: TestApp, marker: string): Promise<Stocked> {
  const { creds, session } = await t.signUp();
  const token = session.accessToken;
  const imageBytes = Buffer.concat([PNG_1PX, Buffer.from(marker)]);
  const { payload, headers } = multipartFile('image', `${marker}.png`, 'image/png', imageBytes);
  const up = await t.request<UploadedImage>('POST', '/api/chat/upload-image', { payload, headers, token });
  expect(up.status, up.text).toBe(200);
  const conv = await createConversation(t, token, { model_name: 'fake-vision', title: `About ${marker}` });
  const base = `/api/chat/conversations/${conv.id}`;
  const sent = await t.post<NonStreamAnswer>(
    `${base}/messages`,
    { stream: false, content: `question ${marker}`, file_ids: [up.body.data.id] },
    token,
  );
  expect(sent.status, sent.text).toBe(200);
  const again = await t.post(`${base}/messages/${sent.body.data.user_message.id}/regenerate`, { stream: false }, token);
  expect(again.status, again.text).toBe(200);
  expect((await t.post(`${base}/draft`, { content: `draft ${marker}` }, token)).status).toBe(200);
  expect((await t.post(`${base}/share`, {}, token)).status).toBe(201);
  const prompt = await t.post(
    '/api/prompts',
    { title: `prompt ${marker}`, content: 'Say {{x}}', scope: 'personal' },
    token,
  );
  expect(prompt.status, prompt.text).toBe(201);
  const kb = await t.post('/api/knowledge-bases', { name: `kb ${marker}`, scope: 'personal' }, token);
  expect(kb.status, kb.text).toBe(201);
  return {
    id: session.user.id,
    email: creds.email,
    password: creds.password,
    token,
    conversationId: conv.id,
    image: up.body.data,
    imageBytes,
    marker,
  };
}

/** GETs a ZIP download and answers its status, headers and (on 200) its entries unzipped. */
export async function download(t: TestApp, url: string, token: string | undefined, lang = 'en-US') {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': lang, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const entries = res.statusCode === 200 ? unzipSync(new Uint8Array(res.rawPayload)) : {};
  return { res, entries, text: (name: string) => strFromU8(entries[name]!) };
}

/** Every entry's text joined, to search an archive for what must not be in it. */
export const allText = (entries: Record<string, Uint8Array>) =>
  Object.entries(entries)
    .map(([name, bytes]) => `${name}\n${Buffer.from(bytes).toString('latin1')}`)
    .join('\n');
