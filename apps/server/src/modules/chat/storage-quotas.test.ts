import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS, QUOTAS, type UploadedImage } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation } from '../../../test/chat-helpers.js';
import { PNG_1PX, type TestApp, multipartFile } from '../../../test/test-app.js';

const CONVERSATIONS = '/api/chat/conversations';
const UPLOAD = '/api/chat/upload-image';

describe('storage quotas per account', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await createChatApp());
  });
  afterAll(async () => {
    await t.close();
  });

  const countConversations = async (userId: number) =>
    Number(
      (
        await t.db
          .selectFrom('conversations')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Gives the user `n` conversations straight in the database (creating thousands through the API is slow). */
  async function seedConversations(userId: number, n: number) {
    const now = new Date().toISOString();
    const rows = Array.from({ length: n }, () => ({
      id: crypto.randomUUID(),
      user_id: userId,
      title: 'seeded',
      model_name: 'fake-echo',
      system_prompt: '',
      is_pinned: 0,
      context_length: LIMITS.contextLengthDefault,
      ai_temperature: 0,
      priority: 0,
      message_count: 0,
      total_tokens: 0,
      last_message_at: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await t.db
        .insertInto('conversations')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  describe('conversations', () => {
    it(`keeps at most ${QUOTAS.conversationsPerUser} per account, with a translated 409 and nothing written`, async () => {
      const { creds, session } = await t.signUp();
      await seedConversations(creds.id, QUOTAS.conversationsPerUser - 1);
      expect((await t.post(CONVERSATIONS, { model_name: 'fake-echo' }, session.accessToken)).status).toBe(201);

      for (const [lang, message] of [
        ['en-US', `You have reached the limit of ${QUOTAS.conversationsPerUser} conversations`],
        ['zh-CN', `对话数量已达上限（${QUOTAS.conversationsPerUser} 个）`],
      ] as const) {
        const res = await t.post(CONVERSATIONS, { model_name: 'fake-echo' }, session.accessToken, lang);
        expect(res.status).toBe(409);
        expect(res.body.error).toBe('CONVERSATION_LIMIT_REACHED');
        expect(res.body.message).toContain(message);
      }
      expect(await countConversations(creds.id)).toBe(QUOTAS.conversationsPerUser);

      // Another account is not concerned; deleting one makes room again.
      const other = await t.signUp();
      expect((await t.post(CONVERSATIONS, { model_name: 'fake-echo' }, other.session.accessToken)).status).toBe(201);
      const [first] = (await t.get<{ id: string }[]>(CONVERSATIONS, session.accessToken)).body.data;
      expect((await t.request('DELETE', `${CONVERSATIONS}/${first?.id}`, { token: session.accessToken })).status).toBe(
        200,
      );
      expect((await t.post(CONVERSATIONS, { model_name: 'fake-echo' }, session.accessToken)).status).toBe(201);
    });

    it('lets simultaneous creations fill the quota exactly, never past it', async () => {
      const { creds, session } = await t.signUp();
      await seedConversations(creds.id, QUOTAS.conversationsPerUser - 2);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => t.post(CONVERSATIONS, { model_name: 'fake-echo' }, session.accessToken)),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(2);
      expect(results.filter((r) => r.status === 409)).toHaveLength(4);
      expect(await countConversations(creds.id)).toBe(QUOTAS.conversationsPerUser);
    });
  });

  describe('text lengths', () => {
    it('refuses an over-long system prompt on creation and on change, and writes nothing', async () => {
      const { creds, session } = await t.signUp();
      const long = 'x'.repeat(QUOTAS.systemPromptChars + 1);
      const created = await t.post(
        CONVERSATIONS,
        { model_name: 'fake-echo', system_prompt: long },
        session.accessToken,
      );
      expect(created.status).toBe(400);
      expect(created.body.data.errors).toEqual(['系统提示词过长']);
      expect(await countConversations(creds.id)).toBe(0);

      const c = await createConversation(t, session.accessToken, { system_prompt: 'short' });
      const changed = await t.put(`${CONVERSATIONS}/${c.id}`, { system_prompt: long }, session.accessToken, 'en-US');
      expect(changed.status).toBe(400);
      expect(changed.body.error).toBe('VALIDATION_FAILED');
      const row = await t.db.selectFrom('conversations').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
      expect(row.system_prompt).toBe('short');
      // The limit itself is accepted.
      const atLimit = 'y'.repeat(QUOTAS.systemPromptChars);
      expect((await t.put(`${CONVERSATIONS}/${c.id}`, { system_prompt: atLimit }, session.accessToken)).status).toBe(
        200,
      );
    });

    it('refuses an over-long draft and keeps the one saved before', async () => {
      const { session } = await t.signUp();
      const c = await createConversation(t, session.accessToken);
      const draftUrl = `${CONVERSATIONS}/${c.id}/draft`;
      expect((await t.post(draftUrl, { content: 'kept' }, session.accessToken)).status).toBe(200);
      const res = await t.post(draftUrl, { content: 'x'.repeat(QUOTAS.draftChars + 1) }, session.accessToken, 'en-US');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      expect(res.body.data.errors).toEqual(['The message is too long']);
      const draft = await t.db
        .selectFrom('conversation_drafts')
        .selectAll()
        .where('conversation_id', '=', c.id)
        .executeTakeFirstOrThrow();
      expect(draft.content).toBe('kept');
    });

    it('refuses an over-long message before anything is stored or charged', async () => {
      const { creds, session } = await t.signUp();
      const c = await createConversation(t, session.accessToken);
      const before = (await t.userRow(creds.id)).credits_used;
      const res = await t.post(
        `${CONVERSATIONS}/${c.id}/messages`,
        { content: 'x'.repeat(QUOTAS.messageChars + 1), stream: false },
        session.accessToken,
        'en-US',
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      const messages = await t.db.selectFrom('messages').select('id').where('conversation_id', '=', c.id).execute();
      expect(messages).toHaveLength(0);
      expect((await t.userRow(creds.id)).credits_used).toBe(before);
    });
  });

  describe('uploaded images', () => {
    const upload = (token: string, lang?: string) => {
      const { payload, headers } = multipartFile('image', 'photo.png', 'image/png', PNG_1PX);
      return t.request<UploadedImage>('POST', UPLOAD, { payload, headers, token, lang });
    };
    const uploadsDir = () => path.join(t.config.dataDir, 'uploads');
    const storedFiles = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0);

    /** Records stored images of `bytes` in all for the user (rows only: the quota counts rows). */
    async function fillStorage(userId: number, bytes: number) {
      const now = new Date().toISOString();
      await t.db
        .insertInto('files')
        .values({
          id: crypto.randomUUID(),
          user_id: userId,
          stored_name: `${crypto.randomUUID()}.png`,
          original_name: 'big.png',
          mime: 'image/png',
          size: bytes,
          created_at: now,
        })
        .execute();
    }
    const fileRows = async (userId: number) =>
      (await t.db.selectFrom('files').select('id').where('user_id', '=', userId).execute()).length;

    it('refuses an upload past the account quota with a translated 413, storing neither row nor bytes', async () => {
      const { creds, session } = await t.signUp();
      await fillStorage(creds.id, QUOTAS.uploadBytesPerUser - PNG_1PX.length);
      expect((await upload(session.accessToken)).status).toBe(200);
      const rows = await fileRows(creds.id);
      const onDisk = storedFiles();

      const refused = await upload(session.accessToken, 'en-US');
      expect(refused.status).toBe(413);
      expect(refused.body.error).toBe('UPLOAD_QUOTA_EXCEEDED');
      expect(refused.body.message).toBe(
        'Your image storage is full (500 MB); delete conversations with images you no longer need to upload more',
      );
      expect((await upload(session.accessToken)).body.message).toContain('图片存储空间已满（500 MB）');
      expect(await fileRows(creds.id)).toBe(rows);
      expect(storedFiles()).toBe(onDisk);

      // Someone else still uploads.
      expect((await upload((await t.signUp()).session.accessToken)).status).toBe(200);
    });

    it('lets simultaneous uploads fill the quota exactly, and removes the bytes of the refused ones', async () => {
      const { creds, session } = await t.signUp();
      await fillStorage(creds.id, QUOTAS.uploadBytesPerUser - 2 * PNG_1PX.length);
      const onDisk = storedFiles();
      const results = await Promise.all(Array.from({ length: 5 }, () => upload(session.accessToken)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      expect(results.filter((r) => r.body.error === 'UPLOAD_QUOTA_EXCEEDED')).toHaveLength(3);
      expect(await fileRows(creds.id)).toBe(3);
      expect(storedFiles()).toBe(onDisk + 2);
    });
  });
});

describe('conversation creation rate', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Scale 1: the real per-minute limit.
    ({ t } = await createChatApp({ config: { rateLimitScale: 1 } }));
  });
  afterAll(async () => {
    await t.close();
  });

  it(`allows ${QUOTAS.conversationsPerMinute} new conversations a minute per account, then a translated 429`, async () => {
    const { creds, session } = await t.signUp();
    for (let i = 0; i < QUOTAS.conversationsPerMinute; i += 1) {
      expect((await t.post(CONVERSATIONS, { model_name: 'fake-echo' }, session.accessToken)).status).toBe(201);
    }
    const res = await t.post(CONVERSATIONS, { model_name: 'fake-echo' }, session.accessToken, 'en-US');
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('TOO_MANY_REQUESTS');
    expect(res.body.message).toBe('Requests too frequent, please try again later');
    const rows = await t.db.selectFrom('conversations').select('id').where('user_id', '=', creds.id).execute();
    expect(rows).toHaveLength(QUOTAS.conversationsPerMinute);
    // Counted per account: a colleague behind the same address is not held back.
    const colleague = await t.signUp();
    expect((await t.post(CONVERSATIONS, { model_name: 'fake-echo' }, colleague.session.accessToken)).status).toBe(201);
  });
});
