import type { FileKind } from '@aiplatform/contracts';
import { type Expression, type ExpressionBuilder, type Insertable, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database, MessageRow, MessagesTable, Db } from '../../db/types.js';
import { type AttachedFile, MessageFilesRepo } from './message-files.repo.js';
import { indexMessage } from './message-search.repo.js';
import { MessageTreeRepo } from './message-tree.repo.js';
import { reusableQuery } from '../../db/reusable-query.js';

/** A message with its files (images and documents) in order, as the presenter needs it. */
export type MessageWithFiles = MessageRow & { files: { id: string; original_name: string; kind: FileKind }[] };

/**
 * Who may settle an answer still streaming: its owner (`owner`), or, once its lease ran
 * out (`leaseExpiredAt`; older rows without a lease by their age, `unleasedBefore`), any
 * instance. With neither, any streaming answer. Settling is a conditional write under
 * this rule, so of several instances trying at once exactly one succeeds.
 */
export type AnswerClaim = { owner: string } | { leaseExpiredAt: string; unleasedBefore: string } | Record<never, never>;

function claimable(claim: AnswerClaim) {
  return (eb: ExpressionBuilder<Database, 'messages'>): Expression<SqlBool> => {
    const streaming = eb('messages.status', '=', 'streaming');
    if ('owner' in claim) return eb.and([streaming, eb('messages.owner_id', '=', claim.owner)]);
    if ('leaseExpiredAt' in claim) return eb.and([streaming, leaseExpired(eb, claim)]);
    return streaming;
  };
}

function leaseExpired(
  eb: ExpressionBuilder<Database, 'messages'>,
  at: { leaseExpiredAt: string; unleasedBefore: string },
): Expression<SqlBool> {
  return eb.or([
    eb('messages.lease_until', '<', at.leaseExpiredAt),
    eb.and([eb('messages.lease_until', 'is', null), eb('messages.created_at', '<', at.unleasedBefore)]),
  ]);
}

const withFiles = (m: MessageRow, files: Map<string, AttachedFile[]>): MessageWithFiles => ({
  ...m,
  files: (files.get(m.id) ?? []).map((f) => ({ id: f.file_id, original_name: f.original_name, kind: f.kind })),
});

export class MessagesRepo {
  private readonly files: MessageFilesRepo;
  /** Parent links changed by turns and deletions. */
  readonly tree = new MessageTreeRepo();

  constructor(private readonly db: Kysely<Database>) {
    this.files = new MessageFilesRepo(db);
  }

  /** The whole conversation, oldest first: one query for the messages, one for all their images. */
  async listFor(conversationId: string): Promise<MessageWithFiles[]> {
    const [rows, files] = await Promise.all([
      this.db.selectFrom('messages').selectAll().where('conversation_id', '=', conversationId).orderBy('seq').execute(),
      this.files.ofConversation(conversationId),
    ]);
    return rows.map((m) => withFiles(m, files));
  }

  async findOne(conversationId: string, id: string, db: Db = this.db): Promise<MessageWithFiles | undefined> {
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && withFiles(row, await this.files.ofMessages([row.id], db));
  }

  /**
   * Inserts in order (the question gets the lower `seq`), with the question's images in
   * order. Neither is indexed for search yet: both are when the turn is settled (the
   * answer by `finishAnswer`, the question by `indexQuestion`), which keeps the search
   * index's writes, a large part of a commit's cost, out of the credit reservation.
   */
  async insertPair(
    db: Db,
    question: Insertable<MessagesTable>,
    answer: Insertable<MessagesTable>,
    questionFileIds: readonly string[] = [],
  ): Promise<void> {
    await this.insertOne(db, question);
    await this.insertOne(db, answer);
    await this.files.attach(db, question.id, questionFileIds);
  }

  /** Inserts one message (an answer placeholder, when a stored question is answered again). */
  async insertOne(db: Db, m: Insertable<MessagesTable>): Promise<void> {
    await this.insertMessage(
      db,
      m.id,
      m.conversation_id,
      m.role,
      m.content,
      m.parent_id ?? null,
      m.tokens,
      m.model_name ?? null,
      m.status,
      m.created_at,
      m.owner_id ?? null,
      m.lease_until ?? null,
      m.citations ?? null,
    );
  }

  // Two of these in every send: the SQL is built once.
  private readonly insertMessage = reusableQuery(
    (
      id: string,
      conversationId: string,
      role: MessageRow['role'],
      content: string,
      parentId: string | null,
      tokens: number,
      modelName: string | null,
      status: MessageRow['status'],
      createdAt: string,
      ownerId: string | null,
      leaseUntil: string | null,
      citations: string | null,
    ) =>
      this.db.insertInto('messages').values({
        id,
        conversation_id: conversationId,
        role,
        content,
        parent_id: parentId,
        tokens,
        model_name: modelName,
        status,
        created_at: createdAt,
        owner_id: ownerId,
        lease_until: leaseUntil,
        citations,
      }),
  );

  private readonly contentOf = reusableQuery((id: string) =>
    this.db.selectFrom('messages').select('content').where('id', '=', id),
  );

  /**
   * Indexes a turn's question for search, when its turn is settled (answered or refunded).
   * It may have been indexed at send time by an earlier version, so an entry is replaced.
   */
  async indexQuestion(db: Db, questionId: string): Promise<void> {
    if (!questionId) return;
    const [row] = await this.contentOf(db, questionId);
    if (row) await indexMessage(db, questionId, row.content);
  }

  /**
   * Stores a finished answer if `claim` still allows it (it was streaming and is ours to
   * settle); the owner and lease go. Returns false when someone else settled it first.
   */
  async finishAnswer(
    db: Db,
    id: string,
    patch: { content: string; tokens: number; status: MessageRow['status'] },
    claim: AnswerClaim = {},
  ): Promise<boolean> {
    const finished =
      'owner' in claim
        ? (await this.finishOwned(db, id, claim.owner, patch.content, patch.tokens, patch.status)).length
        : Number(
            (
              await db
                .updateTable('messages')
                .set({ ...patch, owner_id: null, lease_until: null })
                .where('id', '=', id)
                .where(claimable(claim))
                .executeTakeFirst()
            ).numUpdatedRows,
          );
    if (finished !== 1) return false;
    // A streaming answer has no index entry yet (its partial text is never indexed).
    await indexMessage(db, id, patch.content, true);
    return true;
  }

  // How every answer streamed by this instance ends: the SQL is built once.
  private readonly finishOwned = reusableQuery(
    (id: string, owner: string, content: string, tokens: number, status: MessageRow['status']) =>
      this.db
        .updateTable('messages')
        .set({ content, tokens, status, owner_id: null, lease_until: null })
        .where('id', '=', id)
        .where(claimable({ owner }))
        .returning('id'),
  );

  /** Removes an answer placeholder if `claim` still allows it; returns how many rows went (0 or 1). */
  async deleteStreamingAnswer(db: Db, conversationId: string, id: string, claim: AnswerClaim = {}): Promise<number> {
    const r = await db
      .deleteFrom('messages')
      .where('conversation_id', '=', conversationId)
      .where('id', '=', id)
      .where(claimable(claim))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * The text so far of answers this instance is still streaming (not indexed until they
   * are finished), in one transaction: a commit costs far more than one small update.
   */
  async writePartials(owner: string, answers: readonly { id: string; content: string }[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const { id, content } of answers) {
        await trx.updateTable('messages').set({ content }).where('id', '=', id).where(claimable({ owner })).execute();
      }
    });
  }

  /** Extends the lease of every answer `owner` is streaming, in one statement. */
  async renewLeases(owner: string, until: string): Promise<void> {
    await this.db.updateTable('messages').set({ lease_until: until }).where(claimable({ owner })).execute();
  }

  /** Ids of the answers streaming in a conversation whose owner still holds the lease. */
  async streamingIn(conversationId: string, now: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', conversationId)
      .where('status', '=', 'streaming')
      .where('lease_until', '>=', now)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * How many answers of a user are being written under a live lease, in all their
   * conversations. Streaming rows are few, and the partial index on them finds them.
   */
  async countStreamingOfUser(userId: number, now: string): Promise<number> {
    const r = await this.db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('messages.status', '=', 'streaming')
      .where('messages.lease_until', '>=', now)
      .where('conversations.user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** How many of these answers are still streaming. */
  async countStreaming(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('id', 'in', ids)
      .where('status', '=', 'streaming')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Deletes messages of one conversation; returns how many were removed. */
  async deleteIds(db: Db, conversationId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await db
      .deleteFrom('messages')
      .where('conversation_id', '=', conversationId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Whether the conversation holds an answer (other than `except`). */
  async hasAnswer(db: Db, conversationId: string, except?: string): Promise<boolean> {
    const rows = except
      ? await this.anyAnswerBut(db, conversationId, except)
      : await this.anyAnswer(db, conversationId);
    return rows.length > 0;
  }

  // Read in every send and refund: the SQL is built once.
  private readonly anyAnswer = reusableQuery((conversationId: string) => this.answersIn(conversationId).limit(1));
  private readonly anyAnswerBut = reusableQuery((conversationId: string, except: string) =>
    this.answersIn(conversationId).where('id', '!=', except).limit(1),
  );

  private answersIn(conversationId: string) {
    return this.db
      .selectFrom('messages')
      .select('seq')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'assistant');
  }

  /** Answers still streaming whose owner is gone (lease run out, or older rows by their age), oldest first. */
  findAbandoned(at: { leaseExpiredAt: string; unleasedBefore: string }, limit: number) {
    return this.unsettled(this.db)
      .where((eb) => leaseExpired(eb, at))
      .orderBy('messages.seq')
      .limit(limit)
      .execute();
  }

  /** Answers of a conversation (of `ids`, when given) still streaming with no text stored. */
  silentAnswers(db: Db, conversationId: string, ids?: readonly string[]) {
    let q = this.unsettled(db)
      .where('messages.conversation_id', '=', conversationId)
      .where('messages.content', '=', '');
    if (ids) q = ids.length > 0 ? q.where('messages.id', 'in', ids) : q.where(sql<boolean>`false`);
    return q.execute();
  }

  /**
   * Ends a streaming answer for whoever is about to delete it, so its owner can no longer
   * settle or refund it. False when it was no longer streaming (settled meanwhile).
   */
  async claimForDeletion(db: Db, id: string): Promise<boolean> {
    const r = await db
      .updateTable('messages')
      .set({ status: 'error', owner_id: null, lease_until: null })
      .where('id', '=', id)
      .where('status', '=', 'streaming')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Whether the conversation holds an answer other than `ids`. */
  async hasAnswerBesides(db: Db, conversationId: string, ids: readonly string[]): Promise<boolean> {
    let q = db
      .selectFrom('messages')
      .select('seq')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'assistant');
    if (ids.length > 0) q = q.where('id', 'not in', ids);
    return (await q.limit(1).execute()).length > 0;
  }

  /** Streaming answers with what settling them needs: who, where, when and which model. */
  private unsettled(db: Db) {
    return db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
      .innerJoin('users', 'users.id', 'conversations.user_id')
      .select([
        'messages.id as answerId',
        'messages.parent_id as questionId',
        'messages.conversation_id as conversationId',
        'messages.content as content',
        'messages.created_at as createdAt',
        'conversations.user_id as userId',
        'users.group_id as groupId',
        sql<string>`coalesce(messages.model_name, conversations.model_name)`.as('model'),
      ])
      .where('messages.status', '=', 'streaming');
  }

  async deleteAll(db: Db, conversationId: string): Promise<void> {
    await db.deleteFrom('messages').where('conversation_id', '=', conversationId).execute();
  }
}
