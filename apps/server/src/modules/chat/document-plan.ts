import { DOCUMENT_LIMITS } from '@aiplatform/contracts';

/** A ready document in play for a turn: attached to the question or to an earlier question of the branch. */
export interface PlannedDocument {
  id: string;
  name: string;
  /** Tokens of its whole extracted text. */
  tokens: number;
  pages: number | null;
}

export interface DocumentPlanInput {
  /** The documents in play, in the order they were attached along the branch. */
  documents: readonly PlannedDocument[];
  /** Knowledge bases the conversation searches (readable by the sender). */
  knowledgeBaseIds: readonly number[];
  /** Tokens of the history and the question's own text, sent whatever the documents do. */
  historyTokens: number;
  contextWindow: number;
  /** The settings' `files.full_context_share`. */
  fullContextShare: number;
}

export type DocumentMode = 'none' | 'full' | 'retrieval';

export interface DocumentPlanDecision {
  /** `full`: the documents go whole; `retrieval`: passages go (documents and/or knowledge bases); `none`: nothing. */
  mode: DocumentMode;
  /** Whether the documents in play go whole (false when there are none). */
  whole: boolean;
  /** The documents searched by relevance (none when they go whole). */
  searchedFileIds: string[];
  /** Tokens the documents may fill: the model's share of its context, less the history. */
  budget: number;
  /** Tokens of the documents sent whole. */
  wholeTokens: number;
}

/**
 * Whole text or passages, decided afresh on every turn: the documents in play go whole when
 * together they fit in the model's share of its context window after the history; else the
 * most relevant passages go. Knowledge bases are always searched by relevance. The send and
 * the composer's plan both decide here, so they never disagree.
 */
export function planDocuments(input: DocumentPlanInput): DocumentPlanDecision {
  const budget = Math.max(0, Math.floor(input.fullContextShare * input.contextWindow) - input.historyTokens);
  const total = input.documents.reduce((sum, d) => sum + d.tokens, 0);
  const hasDocuments = input.documents.length > 0;
  const whole = hasDocuments && total <= budget;
  const searchedFileIds = hasDocuments && !whole ? input.documents.map((d) => d.id) : [];
  const mode: DocumentMode = whole
    ? 'full'
    : searchedFileIds.length > 0 || input.knowledgeBaseIds.length > 0
      ? 'retrieval'
      : 'none';
  return { mode, whole, searchedFileIds, budget, wholeTokens: whole ? total : 0 };
}

/** Passages fitted into what is left of the budget, best first; at least the best one when any was found. */
export function passagesWithin<P extends { tokens: number }>(ranked: readonly P[], budget: number): P[] {
  const out: P[] = [];
  let spent = 0;
  for (const p of ranked.slice(0, DOCUMENT_LIMITS.retrievalPassages)) {
    if (out.length > 0 && spent + p.tokens > budget) break;
    out.push(p);
    spent += p.tokens;
  }
  return out;
}

/**
 * The credits document tokens add to a turn: the model's price per 1,000 document tokens,
 * rounded up to a whole credit; nothing when the model does not price them.
 */
export function documentCredits(tokens: number, creditsPer1k: number): number {
  if (creditsPer1k <= 0 || tokens <= 0) return 0;
  return Math.ceil((creditsPer1k * tokens) / 1000);
}
