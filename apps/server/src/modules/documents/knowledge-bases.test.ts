import type { Conversation, ConversationDetail, KnowledgeBase, KnowledgeDocument } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { createChatApp, createConversation } from '../../../test/chat-helpers.js';
import { contractPages, insertDocument } from '../../../test/document-fixtures.js';
import type { TestApp } from '../../../test/test-app.js';
import { UsersRepo } from '../users/users.repo.js';
import { ChunkSearchRepo } from './chunk-search.repo.js';
import { KnowledgeAccess } from './knowledge-access.js';
import { KnowledgeBasesRepo } from './knowledge-bases.repo.js';
import { Retrieval } from './retrieval.js';

interface Person {
  id: number;
  token: string;
}

describe('knowledge bases', () => {
  let t: TestApp;
  let superAdmin: Person;
  let groupAdmin: Person;
  let member: Person;
  let stranger: Person;
  let otherAdmin: Person;
  let groupId: number;
  let otherGroupId: number;

  const signIn = async (overrides: Record<string, unknown>): Promise<Person> => {
    const u = await createUserAsAdmin(t, superAdmin.token, overrides);
    return { id: u.id, token: (await t.tokensFor(u.email, u.password)).accessToken };
  };
  const create = (p: Person, body: Record<string, unknown>) =>
    t.post<KnowledgeBase>('/api/knowledge-bases', body, p.token);
  const createOk = async (p: Person, body: Record<string, unknown>) => {
    const res = await create(p, body);
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  const del = (url: string, p: Person) => t.request<{ deleted: boolean }>('DELETE', url, { token: p.token });
  const list = async (p: Person) => (await t.get<KnowledgeBase[]>('/api/knowledge-bases', p.token)).body.data;

  beforeAll(async () => {
    ({ t } = await createChatApp());
    const admin = await t.loginAsAdmin();
    superAdmin = { id: admin.user.id, token: admin.accessToken };
    groupId = (await createGroupAsAdmin(t, superAdmin.token)).id;
    otherGroupId = (await createGroupAsAdmin(t, superAdmin.token)).id;
    groupAdmin = await signIn({ group_id: groupId, role: 'admin' });
    member = await signIn({ group_id: groupId });
    stranger = await signIn({ group_id: otherGroupId });
    otherAdmin = await signIn({ group_id: otherGroupId, role: 'admin' });
  });
  afterAll(() => t.close());

  it('keeps a personal one its owner’s alone', async () => {
    const kb = await createOk(member, { name: '  My notes ', description: 'mine' });
    expect(kb).toMatchObject({ name: 'My notes', scope: 'personal', group_id: null, document_count: 0 });
    expect(kb.abilities).toEqual({ update: true, delete: true });
    expect((await list(member)).map((k) => k.id)).toContain(kb.id);

    for (const other of [stranger, groupAdmin, superAdmin]) {
      expect((await t.get(`/api/knowledge-bases/${kb.id}`, other.token)).status).toBe(404);
      expect((await t.put(`/api/knowledge-bases/${kb.id}`, { name: 'x' }, other.token)).status).toBe(404);
      expect((await t.get(`/api/knowledge-bases/${kb.id}/documents`, other.token)).status).toBe(404);
      expect((await del(`/api/knowledge-bases/${kb.id}`, other)).status).toBe(404);
      expect((await list(other)).map((k) => k.id)).not.toContain(kb.id);
    }
    const renamed = await t.put<KnowledgeBase>(`/api/knowledge-bases/${kb.id}`, { name: 'Renamed' }, member.token);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', description: 'mine' });
    expect((await del(`/api/knowledge-bases/${kb.id}`, member)).body.data).toEqual({ deleted: true });
    expect((await t.get(`/api/knowledge-bases/${kb.id}`, member.token)).status).toBe(404);
  });

  it('lets a group read its group’s and only its administrators change it', async () => {
    const plain = await create(member, { name: 'Team', scope: 'group' });
    expect(plain.status).toBe(403);
    expect(plain.body.error).toBe('FORBIDDEN');
    expect((await create(groupAdmin, { name: 'Theirs', scope: 'group', group_id: otherGroupId })).status).toBe(404);

    const kb = await createOk(groupAdmin, { name: 'Team handbook', scope: 'group' });
    expect(kb).toMatchObject({ scope: 'group', group_id: groupId, abilities: { update: true, delete: true } });

    const seen = await t.get<KnowledgeBase>(`/api/knowledge-bases/${kb.id}`, member.token);
    expect(seen.status).toBe(200);
    expect(seen.body.data.abilities).toEqual({ update: false, delete: false });
    expect((await list(member)).map((k) => k.id)).toContain(kb.id);
    expect((await t.put(`/api/knowledge-bases/${kb.id}`, { name: 'Mine now' }, member.token)).status).toBe(403);
    expect((await del(`/api/knowledge-bases/${kb.id}`, member)).status).toBe(403);

    for (const other of [stranger, otherAdmin]) {
      expect((await t.get(`/api/knowledge-bases/${kb.id}`, other.token)).status).toBe(404);
      expect((await t.put(`/api/knowledge-bases/${kb.id}`, { name: 'x' }, other.token)).status).toBe(404);
      expect((await list(other)).map((k) => k.id)).not.toContain(kb.id);
    }

    // A super administrator reads and changes every group's, and makes one for any group.
    const bySuper = await t.put<KnowledgeBase>(`/api/knowledge-bases/${kb.id}`, { description: 'd' }, superAdmin.token);
    expect(bySuper.body.data).toMatchObject({ description: 'd', abilities: { update: true } });
    const forOther = await createOk(superAdmin, { name: 'Other handbook', scope: 'group', group_id: otherGroupId });
    expect(forOther.group_id).toBe(otherGroupId);
    expect((await t.get(`/api/knowledge-bases/${forOther.id}`, stranger.token)).status).toBe(200);
    expect((await t.get(`/api/knowledge-bases/${forOther.id}`, member.token)).status).toBe(404);
    expect((await create(superAdmin, { name: 'x', scope: 'group', group_id: 999_999 })).status).toBe(404);
  });

  it('takes the caller’s own documents, and forgets a removed one at once', async () => {
    const kb = await createOk(groupAdmin, { name: 'Manuals', scope: 'group' });
    const doc = await insertDocument(
      t.db,
      groupAdmin.id,
      'pump.pdf',
      contractPages(3, { 2: 'The pump impeller is made of bronze.' }),
    );
    const foreign = await insertDocument(t.db, member.id, 'member.pdf', contractPages(1));
    const image = crypto.randomUUID();
    await t.db
      .insertInto('files')
      .values({
        id: image,
        user_id: groupAdmin.id,
        stored_name: 'i.png',
        original_name: 'i.png',
        mime: 'image/png',
        size: 1,
        created_at: new Date().toISOString(),
      })
      .execute();
    const add = (p: Person, fileId: string) =>
      t.post<KnowledgeDocument>(`/api/knowledge-bases/${kb.id}/documents`, { file_id: fileId }, p.token);

    const added = await add(groupAdmin, doc);
    expect(added.status, added.text).toBe(201);
    expect(added.body.data).toMatchObject({ id: doc, name: 'pump.pdf', kind: 'document', status: 'ready', pages: 3 });
    expect((await add(groupAdmin, doc)).status).toBe(201);
    expect((await add(groupAdmin, foreign)).status).toBe(404);
    expect((await add(member, foreign)).status).toBe(403);
    const refused = await add(groupAdmin, image);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('VALIDATION_FAILED');
    expect((refused.body.data as { errors?: string[] }).errors?.[0]).toContain('知识库');

    const docs = await t.get<KnowledgeDocument[]>(`/api/knowledge-bases/${kb.id}/documents`, member.token);
    expect(docs.body.data.map((d) => d.id)).toEqual([doc]);
    expect((await t.get<KnowledgeBase>(`/api/knowledge-bases/${kb.id}`, member.token)).body.data.document_count).toBe(
      1,
    );

    // Its readers read the document too; nobody else finds it.
    expect((await t.get(`/api/chat/files/${doc}`, member.token)).status).toBe(200);
    expect((await t.get(`/api/chat/files/${doc}/text`, member.token)).status).toBe(200);
    expect((await t.get(`/api/chat/files/${doc}`, stranger.token)).status).toBe(404);

    const access = new KnowledgeAccess(new KnowledgeBasesRepo(t.db), new UsersRepo(t.db));
    expect(await access.canReadFile(member.id, doc)).toBe(true);
    expect(await access.canReadFile(stranger.id, doc)).toBe(false);
    expect(await access.readableKnowledgeBaseIds(member.id, [kb.id, kb.id, 999_999])).toEqual([kb.id]);
    expect(await access.readableKnowledgeBaseIds(stranger.id, [kb.id])).toEqual([]);

    const retrieval = new Retrieval(new ChunkSearchRepo(t.db));
    const ask = () =>
      retrieval.search({ fileIds: [], knowledgeBaseIds: [kb.id], query: 'impeller material', limit: 3 });
    expect((await ask())[0]).toMatchObject({ fileId: doc, page: 2 });

    expect((await del(`/api/knowledge-bases/${kb.id}/documents/${doc}`, member)).status).toBe(403);
    const removed = await del(`/api/knowledge-bases/${kb.id}/documents/${doc}`, groupAdmin);
    expect(removed.body.data).toEqual({ deleted: true });
    expect(await ask()).toEqual([]);
    expect(await access.canReadFile(member.id, doc)).toBe(false);
    expect((await del(`/api/knowledge-bases/${kb.id}/documents/${doc}`, groupAdmin)).status).toBe(404);

    // Deleting the file takes it out of every knowledge base.
    expect((await add(groupAdmin, doc)).status).toBe(201);
    expect((await del(`/api/chat/files/${doc}`, member)).status).toBe(404);
    expect((await del(`/api/chat/files/${doc}`, groupAdmin)).status).toBe(200);
    expect(await ask()).toEqual([]);
    expect(
      (await t.get<KnowledgeDocument[]>(`/api/knowledge-bases/${kb.id}/documents`, member.token)).body.data,
    ).toEqual([]);
  });

  it('are attached to conversations by those who may read them', async () => {
    const team = await createOk(groupAdmin, { name: 'Team', scope: 'group' });
    const own = await createOk(member, { name: 'Own' });
    const theirs = await createOk(stranger, { name: 'Theirs' });

    const c = await createConversation(t, member.token, { knowledge_base_ids: [own.id, team.id, own.id] });
    expect(c.knowledge_base_ids).toEqual([team.id, own.id].sort((a, b) => a - b));
    const detail = await t.get<ConversationDetail>(`/api/chat/conversations/${c.id}`, member.token);
    expect(detail.body.data.knowledge_base_ids).toEqual(c.knowledge_base_ids);
    const page = await t.get<Conversation[]>('/api/chat/conversations', member.token);
    expect(page.body.data.find((x) => x.id === c.id)?.knowledge_base_ids).toEqual(c.knowledge_base_ids);

    const replaced = await t.put<Conversation>(
      `/api/chat/conversations/${c.id}`,
      { knowledge_base_ids: [own.id] },
      member.token,
    );
    expect(replaced.body.data.knowledge_base_ids).toEqual([own.id]);
    const untouched = await t.put<Conversation>(`/api/chat/conversations/${c.id}`, { title: 'T' }, member.token);
    expect(untouched.body.data.knowledge_base_ids).toEqual([own.id]);

    for (const bad of [[theirs.id], [own.id, 999_999]]) {
      expect((await t.put(`/api/chat/conversations/${c.id}`, { knowledge_base_ids: bad }, member.token)).status).toBe(
        404,
      );
      const refused = await t.post(
        '/api/chat/conversations',
        { model_name: 'fake-echo', knowledge_base_ids: bad },
        member.token,
      );
      expect(refused.status).toBe(404);
    }
    expect(
      (await t.get<Conversation>(`/api/chat/conversations/${c.id}`, member.token)).body.data.knowledge_base_ids,
    ).toEqual([own.id]);

    // A deleted knowledge base leaves the conversation's list.
    await t.put(`/api/chat/conversations/${c.id}`, { knowledge_base_ids: [own.id, team.id] }, member.token);
    await del(`/api/knowledge-bases/${own.id}`, member);
    const after = await t.get<Conversation>(`/api/chat/conversations/${c.id}`, member.token);
    expect(after.body.data.knowledge_base_ids).toEqual([team.id]);
    const cleared = await t.put<Conversation>(
      `/api/chat/conversations/${c.id}`,
      { knowledge_base_ids: [] },
      member.token,
    );
    expect(cleared.body.data.knowledge_base_ids).toEqual([]);
  });
});
