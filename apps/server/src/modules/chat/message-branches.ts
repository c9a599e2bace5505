import crypto from 'node:crypto';
import type { FileKind, FileStatus } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { ConversationRow, Database, Db } from '../../db/types.js';
import { AppError, notFound } from '../../lib/http/errors.js';
import type { AttachedFile, MessageFilesRepo } from './message-files.repo.js';
import { MessageTree } from './message-tree.js';
import type { MessageNode, MessageTreeRepo } from './message-tree.repo.js';
import type { TurnMessage } from './send-prompt.js';

export type { MessageNode } from './message-tree.repo.js';

/** A file of a turn's question: an image, or a document whose extracted text may go. */
export interface QuestionFile {
  id: string;
  kind: FileKind;
  status: FileStatus;
  error_code: string | null;
  stored_name: string;
  mime: string;
  original_name: string;
  size: number;
}

/**
 * The question a turn answers: a new one (`isNew`) or a stored one answered again, its
 * place in the tree, its files in order, and the history the model is sent before it.
 */
export interface TurnQuestion {
  asked: { id: string; parentId: string | null; content: string; isNew: boolean };
  files: QuestionFile[];
  history: TurnMessage[];
}

/**
 * Where a turn goes in a conversation's tree of versions and what the model is told:
 * the history along the branch being answered, never the other versions.
 */
export class MessageBranches {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly links: MessageTreeRepo,
    private readonly files: MessageFilesRepo,
  ) {}

  /** The conversation's messages as a tree (ids, links and states only). */
  async tree(conversationId: string, db: Db = this.db): Promise<MessageTree<MessageNode>> {
    return new MessageTree(await this.links.nodes(db, conversationId));
  }

  /**
   * A new question's place: the parent named, or by default the last message of the branch
   * shown; with its files (`files`, read beside the tree) and the history the model is
   * sent before it. A named parent must be a message of this conversation (else 404) that a
   * question may follow (else FOLLOW_UP_NOT_ALLOWED); null makes a new first question.
   */
  async newQuestion(
    conversation: ConversationRow,
    ask: { content: string; parentId: string | null | undefined },
    files: () => Promise<QuestionFile[]>,
  ): Promise<TurnQuestion> {
    const [found, tree] = await Promise.all([files(), this.tree(conversation.id)]);
    const named = ask.parentId;
    const parentId = named === undefined ? (tree.shownLeaf(conversation.active_message_id)?.id ?? null) : named;
    if (parentId !== null) {
      const parent = tree.get(parentId);
      if (!parent) throw notFound();
      if (named !== undefined && !mayBeFollowed(parent)) throw new AppError('FOLLOW_UP_NOT_ALLOWED');
    }
    return {
      asked: { id: crypto.randomUUID(), parentId, content: ask.content, isNew: true },
      files: found,
      history: await this.historyUpTo(tree, parentId, conversation.context_length),
    };
  }

  /**
   * A question to answer again: a user message of this conversation (another id is not
   * found; an answer's id is NOT_A_QUESTION), with its files and the history before it.
   */
  async storedQuestion(conversation: ConversationRow, questionId: string): Promise<TurnQuestion> {
    const tree = await this.tree(conversation.id);
    const node = tree.get(questionId);
    if (!node) throw notFound();
    if (node.role !== 'user') throw new AppError('NOT_A_QUESTION');
    const parentId = tree.parentOf(node.id);
    const [content, files, history] = await Promise.all([
      this.links.contents(this.db, [node.id]),
      this.files.ofMessages([node.id]),
      this.historyUpTo(tree, parentId, conversation.context_length),
    ]);
    return {
      asked: { id: node.id, parentId, content: content.get(node.id) ?? '', isNew: false },
      files: (files.get(node.id) ?? []).map((f) => ({
        id: f.file_id,
        kind: f.kind,
        status: f.status,
        error_code: f.error_code,
        stored_name: f.stored_name,
        mime: f.mime,
        original_name: f.original_name,
        size: f.size,
      })),
      history,
    };
  }

  /**
   * The last `limit` finished messages from the first question down to `lastId`. Answers
   * still streaming, failed or empty and questions left unanswered are left out: they
   * are not part of what was said.
   */
  private async historyUpTo(
    tree: MessageTree<MessageNode>,
    lastId: string | null,
    limit: number,
  ): Promise<TurnMessage[]> {
    if (limit <= 0 || lastId === null) return [];
    const said = tree
      .pathTo(lastId)
      .filter((m) => (m.status === 'complete' || m.status === 'stopped') && m.says === 1)
      .slice(-limit);
    if (said.length === 0) return [];
    const ids = said.map((m) => m.id);
    const [content, files] = await Promise.all([
      this.links.contents(this.db, ids),
      this.files.ofMessages(said.filter((m) => m.role === 'user').map((m) => m.id)),
    ]);
    return said.map((m) => {
      const attached = files.get(m.id) ?? [];
      return {
        role: m.role,
        content: content.get(m.id) ?? '',
        images: attached
          .filter((f) => f.kind === 'image')
          .map((f: AttachedFile) => ({ storedName: f.stored_name, mime: f.mime, size: f.size })),
        documents: documentIdsOf(attached),
      };
    });
  }
}

/** The ready documents among a message's files, in the order they were attached. */
export function documentIdsOf(files: readonly Pick<AttachedFile, 'file_id' | 'kind' | 'status'>[]): string[] {
  return files.filter((f) => f.kind === 'document' && f.status === 'ready').map((f) => f.file_id);
}

/**
 * Whether a question may be sent after this message: after a finished answer (complete,
 * stopped, or broken off with text), or after a question left unanswered (its turn
 * refunded; what is sent after it hangs under it). Not after a question that has or is
 * getting an answer, nor after an answer still streaming: the new question would sit
 * beside those answers as a version of them.
 */
function mayBeFollowed(m: MessageNode): boolean {
  if (m.role === 'user') return m.status === 'unanswered';
  return (m.status === 'complete' || m.status === 'stopped' || m.status === 'error') && m.says === 1;
}
