import { type Citation, DOCUMENT_LIMITS } from '@aiplatform/contracts';
import type { TurnMessage } from './send-prompt.js';

/** A page of a document's extracted text. */
export interface DocumentPageText {
  page: number;
  text: string;
}

/** A passage found by relevance, as the prompt and the citations need it. */
export interface PlacedPassage {
  fileId: string;
  fileName: string;
  page: number | null;
  text: string;
}

/**
 * Where a turn's document text goes: each document sent whole inside the question that
 * attached it (`whole`, by file id), the passages found by relevance inside the current
 * question only.
 */
export interface DocumentPlacement {
  whole: ReadonlyMap<string, string>;
  passages: readonly PlacedPassage[];
}

export const NO_DOCUMENTS: DocumentPlacement = { whole: new Map(), passages: [] };

const attr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A document's whole text as one block. It depends only on the stored text, so the block is
 * byte for byte the same on every turn: a provider's prompt cache keeps the conversation's
 * prefix. Pages are marked when there are several, so the model can say where it read.
 */
export function wholeDocumentBlock(name: string, pages: readonly DocumentPageText[]): string {
  const body =
    pages.length === 1
      ? (pages[0] as DocumentPageText).text
      : pages.map((p) => `[page ${p.page}]\n${p.text}`).join('\n\n');
  return `<document name="${attr(name)}" pages="${pages.length}">\n${body}\n</document>`;
}

/** The passages of the current question, numbered in the order of relevance. */
export function passagesBlock(passages: readonly PlacedPassage[]): string {
  const items = passages.map(
    (p, i) => `[${i + 1}] ${p.fileName}${p.page === null ? '' : `, page ${p.page}`}\n${p.text}`,
  );
  return `<passages>\n${items.join('\n\n')}\n</passages>`;
}

/**
 * The turn's messages with the documents in place: the first user message that attached a
 * document sent whole carries its block before its own text (on this turn and every later one,
 * so earlier messages never change); the last message, the question, also carries the
 * passages found for it. Messages without documents are left as they are.
 */
export function placeDocuments(messages: readonly TurnMessage[], placement: DocumentPlacement): TurnMessage[] {
  const last = messages.length - 1;
  // A document attached again later stays where it first came: its text goes once.
  const placed = new Set<string>();
  return messages.map((m, i) => {
    if (m.role !== 'user') return m;
    const blocks = (m.documents ?? []).flatMap((id) => {
      const block = placement.whole.get(id);
      if (block === undefined || placed.has(id)) return [];
      placed.add(id);
      return [block];
    });
    if (i === last && placement.passages.length > 0) blocks.push(passagesBlock(placement.passages));
    if (blocks.length === 0) return m;
    return { ...m, content: [...blocks, m.content].filter((part) => part !== '').join('\n\n') };
  });
}

/** The start of a passage or a document, as a citation shows it. */
export const snippetOf = (text: string) => text.slice(0, DOCUMENT_LIMITS.snippetChars);

/** The citations of a turn: each document sent whole once (no page), then each passage with its page. */
export function citationsOf(
  whole: readonly { id: string; name: string; text: string }[],
  passages: readonly PlacedPassage[],
): Citation[] {
  return [
    ...whole.map((d) => ({ file_id: d.id, name: d.name, page: null, snippet: snippetOf(d.text) })),
    ...passages.map((p) => ({ file_id: p.fileId, name: p.fileName, page: p.page, snippet: snippetOf(p.text) })),
  ];
}
