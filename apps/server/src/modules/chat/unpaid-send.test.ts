import type { NonStreamAnswer, UploadedImage } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import { type ErrorData, PNG_1PX, type TestApp, multipartFile } from '../../../test/test-app.js';
import { ImagesService } from './images.service.js';

/** A send the user cannot pay for is refused before the stored images of the conversation are read from disk. */
describe('a send that cannot be paid', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await createChatApp());
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await expectLedgerConsistent(t);
    await t.close();
  });

  async function upload(token: string, name: string): Promise<UploadedImage> {
    const { payload, headers } = multipartFile('image', name, 'image/png', PNG_1PX);
    const res = await t.request<UploadedImage>('POST', '/api/chat/upload-image', { payload, headers, token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }
  const send = (token: string, conversationId: string, body: Record<string, unknown>) =>
    t.post<NonStreamAnswer & ErrorData>(
      `/api/chat/conversations/${conversationId}/messages`,
      { stream: false, ...body },
      token,
    );

  it('is refused with 402 without reading any image, its own or those earlier in the conversation', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const conv = await createConversation(t, token, { model_name: 'fake-vision' });
    const first = await send(token, conv.id, { content: 'look', file_ids: [(await upload(token, 'a.png')).id] });
    expect(first.status, first.text).toBe(200);
    const next = await upload(token, 'b.png');

    const read = vi.spyOn(ImagesService.prototype, 'read');
    await t.setSetting('credits', { enabled: true, min_credits_for_chat: 5000 });
    try {
      const refused = await send(token, conv.id, { content: 'and this one', file_ids: [next.id] });
      expect(refused.status).toBe(402);
      expect(refused.body.error).toBe('INSUFFICIENT_CREDITS');
      expect(read).not.toHaveBeenCalled();
    } finally {
      await t.setSetting('credits', { enabled: true });
    }
    // Once it can be paid, both images are read for the prompt.
    const paid = await send(token, conv.id, { content: 'and this one', file_ids: [next.id] });
    expect(paid.status, paid.text).toBe(200);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
