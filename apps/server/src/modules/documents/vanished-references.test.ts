import type { Conversation } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation } from '../../../test/chat-helpers.js';
import { contractPages, insertDocument, insertKnowledgeBase } from '../../../test/document-fixtures.js';
import type { TestApp } from '../../../test/test-app.js';
import type { UserRow } from '../../db/types.js';
import type { Settings } from '@aiplatform/contracts';
import { AppError } from '../../lib/http/errors.js';
import { ConversationKnowledge } from '../chat/conversation-knowledge.js';
import { ConversationKnowledgeRepo } from '../chat/conversation-knowledge.repo.js';
import { TurnReservation, type ReserveRequest } from '../chat/send-reserve.js';
import type { TurnAccounting } from '../chat/turn-accounting.js';
import type { AnswerStops } from '../chat/answer-stops.js';
import type { LiveAnswers } from '../chat/live-answers.js';
import type { UpstreamLimits } from '../chat/send-relay.js';
import { KnowledgeBasesRepo } from './knowledge-bases.repo.js';

/**
 * Rows checked a moment before a write and deleted in between (a knowledge base, a file, a
 * conversation) make the write break a foreign key: the request is "not found", as it would
 * have been a moment later, never a 500, and nothing is half-written.
 */
describe('references deleted between the check and the write', () => {
  let t: TestApp;
  let userId: number;
  let token: string;

  beforeAll(async () => {
    ({ t } = await createChatApp());
    const admin = await t.loginAsAdmin();
    userId = admin.user.id;
    token = admin.accessToken;
  });
  afterAll(() => t.close());

  const expectNotFound = async (p: Promise<unknown>) => {
    const err: unknown = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(404);
  };

  it('a knowledge base deleted after the check: the conversation update is not found and keeps its list', async () => {
    const kept = await insertKnowledgeBase(t.db, userId, [], 'kept');
    const conversation: Conversation = await createConversation(t, token, { knowledge_base_ids: [kept] });
    const gone = await insertKnowledgeBase(t.db, userId, [], 'gone');
    await t.db.deleteFrom('knowledge_bases').where('id', '=', gone).execute();
    // The check said yes (it ran before the deletion); the write meets the deletion.
    const knowledge = new ConversationKnowledge(new ConversationKnowledgeRepo(t.db), {
      readableKnowledgeBaseIds: (_user, ids) => Promise.resolve([...ids]),
    });
    await expectNotFound(knowledge.save(conversation.id, [kept, gone]));
    const [after] = await knowledge.attach([conversation]);
    expect(after!.knowledge_base_ids).toEqual([kept]);
  });

  it('a knowledge base or a file deleted before the insert: adding the document reports it gone', async () => {
    const repo = new KnowledgeBasesRepo(t.db);
    const fileId = await insertDocument(t.db, userId, 'a.pdf', contractPages(1));
    const kb = await insertKnowledgeBase(t.db, userId, [], 'target');
    await t.db.deleteFrom('knowledge_bases').where('id', '=', kb).execute();
    expect(await repo.addDocument(kb, fileId, new Date().toISOString())).toBeNull();

    const live = await insertKnowledgeBase(t.db, userId, [], 'live');
    await t.db.deleteFrom('files').where('id', '=', fileId).execute();
    expect(await repo.addDocument(live, fileId, new Date().toISOString())).toBeNull();
    expect(await repo.documents(live)).toEqual([]);
  });

  it('a file or conversation deleted before the reservation: the send is not found', async () => {
    const fkError = Object.assign(new Error('insert violates foreign key'), { code: '23503' });
    const accounting = { open: () => Promise.reject(fkError) } as unknown as TurnAccounting;
    const live = { ownerId: 'test', leaseUntil: () => new Date().toISOString() } as unknown as LiveAnswers;
    const reservation = new TurnReservation(accounting, {} as AnswerStops, live, {} as UpstreamLimits);
    const request = {
      user: { id: userId, group_id: 1 } as UserRow,
      conversation: { id: 'c' },
      model: { row: { name: 'fake-echo', stream_enabled: 1 } },
      input: { asked: { id: 'q', content: 'hi', parentId: null, isNew: true }, files: [{ id: 'f' }] },
      price: { cost: 1, required: 1 },
      settings: { stats: { time_zone: 'UTC' } } as unknown as Settings,
      now: new Date().toISOString(),
      prompt: undefined,
      stream: false,
      citations: [],
    } as unknown as ReserveRequest;
    await expectNotFound(reservation.reserve(request, new AbortController()));
  });
});
