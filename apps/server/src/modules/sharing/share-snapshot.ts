import type { Citation, SharedMessage } from '@aiplatform/contracts';
import type { ConversationRow } from '../../db/types.js';
import { parseCitations } from '../chat/chat.presenter.js';
import type { MessageWithFiles } from '../chat/messages.repo.js';
import { MessageTree } from '../chat/message-tree.js';

/** What a share link stores: the branch shown when it was shared, text only. */
export interface ShareSnapshot {
  model_display_name: string;
  messages: SnapshotMessage[];
}

export interface SnapshotMessage extends SharedMessage {
  /** The model that wrote an answer, by name (a copy continues on it when the reader may use it). */
  model_name: string | null;
}

/**
 * Takes the branch shown of a conversation as it is now. Only settled text goes in: an
 * answer still being written, a failed turn and a question never answered are left out.
 * Files are not copied (an image or document is its owner's alone): a message says how
 * many it carried. Citations keep their document's name, page and passage, not the file.
 */
export function takeSnapshot(
  conversation: ConversationRow,
  rows: readonly MessageWithFiles[],
  displayNames: ReadonlyMap<string, string>,
): ShareSnapshot {
  const tree = new MessageTree(rows);
  const shown = tree.shownBranch(conversation.active_message_id);
  const messages: SnapshotMessage[] = [];
  for (const m of shown) {
    if (m.status !== 'complete' && m.status !== 'stopped') continue;
    messages.push({
      role: m.role,
      content: m.content,
      created_at: m.created_at,
      model_name: m.role === 'assistant' ? m.model_name : null,
      model_display_name:
        m.role === 'assistant' && m.model_name ? (displayNames.get(m.model_name) ?? m.model_name) : null,
      stopped: m.status === 'stopped',
      files_omitted: m.files.length,
      citations: m.role === 'assistant' ? parseCitations(m.citations).map(withoutFile) : [],
    });
  }
  return {
    model_display_name: displayNames.get(conversation.model_name) ?? conversation.model_name,
    messages,
  };
}

const withoutFile = (c: Citation): Citation => ({ file_id: '', name: c.name, page: c.page, snippet: c.snippet });

/** The models a snapshot names (the conversation's and its answers'), for their display names. */
export function modelNamesOf(conversation: ConversationRow, rows: readonly MessageWithFiles[]): string[] {
  const names = new Set([conversation.model_name]);
  for (const m of rows) if (m.role === 'assistant' && m.model_name) names.add(m.model_name);
  return [...names];
}

/** A stored snapshot; an unreadable one reads as empty. */
export function parseSnapshot(json: string): ShareSnapshot {
  try {
    const parsed = JSON.parse(json) as Partial<ShareSnapshot>;
    return { model_display_name: parsed.model_display_name ?? '', messages: parsed.messages ?? [] };
  } catch {
    return { model_display_name: '', messages: [] };
  }
}
