import fs from 'node:fs';
import path from 'node:path';
import type { Conversation, NonStreamAnswer } from '@aiplatform/contracts';
import { sql } from 'kysely';
import { createConversation } from './chat-helpers.js';
import type { TestApp } from './test-app.js';
import { uploadImage } from './upload-helpers.js';

const DAY_MS = 86_400_000;

/** A conversation of one turn with an uploaded image; returns it and where the image lies on disk. */
export async function conversationWithImage(t: TestApp, token: string, body: { is_pinned?: boolean } = {}) {
  const conv: Conversation = await createConversation(t, token, { model_name: 'fake-vision', ...body });
  const up = await uploadImage(t, token);
  if (up.status !== 201 && up.status !== 200) throw new Error(`upload: ${up.status} ${up.text}`);
  const sent = await t.post<NonStreamAnswer>(
    `/api/chat/conversations/${conv.id}/messages`,
    { stream: false, content: 'look at this', file_ids: [up.body.data.id] },
    token,
  );
  if (sent.status !== 200) throw new Error(`send: ${sent.status} ${sent.text}`);
  const file = await t.db
    .selectFrom('files')
    .select('stored_name')
    .where('id', '=', up.body.data.id)
    .executeTakeFirstOrThrow();
  return { conv, fileId: up.body.data.id, filePath: path.join(t.config.dataDir, 'uploads', file.stored_name) };
}

/** Makes a conversation last used `days` ago. */
export async function age(t: TestApp, conversationId: string, days: number): Promise<void> {
  const at = new Date(t.clock.now().getTime() - days * DAY_MS).toISOString();
  await t.db.updateTable('conversations').set({ updated_at: at }).where('id', '=', conversationId).execute();
}

export async function conversationExists(t: TestApp, id: string): Promise<boolean> {
  return (await t.db.selectFrom('conversations').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function fileExists(t: TestApp, f: { fileId: string; filePath: string }) {
  const row = await t.db.selectFrom('files').select('id').where('id', '=', f.fileId).executeTakeFirst();
  return { row: row !== undefined, disk: fs.existsSync(f.filePath) };
}

/** What the money and usage tables hold, summed: retention must leave it exactly as it was. */
export async function moneyTotals(t: TestApp) {
  const ledger = await t.db
    .selectFrom('credit_transactions')
    .select([sql<string>`coalesce(sum(amount), 0)`.as('sum'), sql<string>`count(*)`.as('n')])
    .executeTakeFirstOrThrow();
  const usage = await t.db
    .selectFrom('usage_daily')
    .select(sql<string>`coalesce(sum(credits), 0)`.as('sum'))
    .executeTakeFirstOrThrow();
  return { ledger: Number(ledger.sum), rows: Number(ledger.n), usage: Number(usage.sum) };
}

export async function tableCounts(t: TestApp) {
  const n = async (table: 'conversations' | 'messages' | 'files') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select(sql<string>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { conversations: await n('conversations'), messages: await n('messages'), files: await n('files') };
}
