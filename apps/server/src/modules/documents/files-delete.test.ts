import type { KnowledgeBase } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation, sendStreamed } from '../../../test/chat-helpers.js';
import { makePdf, uploadReady } from '../../../test/document-files.js';
import type { TestApp } from '../../../test/test-app.js';

/** A file a sent message lists belongs to that message's history: deleting it alone keeps it. */
describe('deleting a file a message lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await createChatApp());
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the file while its message exists, and lets it go with the conversation', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const doc = await uploadReady(t, token, 'sent.pdf', await makePdf(['The fee is 40 euros.']));
    const conv = await createConversation(t, token);
    expect((await sendStreamed(t, token, conv.id, { content: 'What is the fee?', file_ids: [doc.id] })).status).toBe(
      200,
    );

    const kb = await t.post<KnowledgeBase>('/api/knowledge-bases', { name: 'Fees' }, token);
    expect((await t.post(`/api/knowledge-bases/${kb.body.data.id}/documents`, { file_id: doc.id }, token)).status).toBe(
      201,
    );

    const del = await t.request<{ deleted: boolean }>('DELETE', `/api/chat/files/${doc.id}`, { token });
    expect(del.status).toBe(200);
    expect(del.body.data.deleted).toBe(false);
    expect((await t.get(`/api/chat/files/${doc.id}/text`, token)).status).toBe(200);
    // Kept for its message only: it has left the knowledge base, whose searches no longer see it.
    const left = await t.get<unknown[]>(`/api/knowledge-bases/${kb.body.data.id}/documents`, token);
    expect(left.body.data).toEqual([]);

    expect((await t.request('DELETE', `/api/chat/conversations/${conv.id}`, { token })).status).toBe(200);
    expect((await t.get(`/api/chat/files/${doc.id}`, token)).status).toBe(404);
  });
});
