import { type Citation, DOCUMENT_LIMITS, type Settings } from '@aiplatform/contracts';
import { estimateTokens } from '../../ai/tokens.js';
import type { AiModelRow, ConversationRow, UserRow } from '../../db/types.js';
import type { ConversationDocumentsRepo } from './conversation-documents.repo.js';
import type { ConversationKnowledgeRepo } from './conversation-knowledge.repo.js';
import {
  type DocumentMode,
  type DocumentPlanDecision,
  type PlannedDocument,
  documentCredits,
  passagesWithin,
  planDocuments,
} from './document-plan.js';
import { type DocumentPlacement, NO_DOCUMENTS, citationsOf, wholeDocumentBlock } from './document-prompt.js';
import type { ChatDocumentSources } from './document-sources.js';
import type { FilesRepo } from './files.repo.js';
import type { TurnMessage } from './send-prompt.js';

/** What the documents add to one turn. */
export interface DocumentTurn {
  mode: DocumentMode;
  /** Document tokens sent: whole documents and passages. */
  tokens: number;
  /** Their price at the model's rate (before the site's credit switch). */
  credits: number;
  citations: Citation[];
  placement: DocumentPlacement;
}

/** What a send would do now, as the composer shows it. */
export interface DocumentEstimate {
  mode: DocumentMode;
  tokens: number;
  credits: number;
}

interface Decided {
  decision: DocumentPlanDecision;
  documents: PlannedDocument[];
  knowledgeBaseIds: number[];
}

/**
 * A step of a send: the documents in play (attached to the question and to earlier
 * questions of the branch) and the conversation's knowledge bases. `planDocuments` decides
 * whole text or passages; whole documents are read and placed in the questions that
 * attached them, passages are searched for the question and placed in it alone. Runs
 * before the reservation, which charges the document tokens with the turn.
 */
export class TurnDocuments {
  constructor(
    private readonly files: FilesRepo,
    /** The knowledge bases each conversation searches (written by the conversation's create and update). */
    private readonly knowledgeOf: ConversationKnowledgeRepo,
    private readonly repo: ConversationDocumentsRepo,
    private readonly sources: ChatDocumentSources,
  ) {}

  async forTurn(
    user: UserRow,
    conversation: ConversationRow,
    model: AiModelRow,
    messages: readonly TurnMessage[],
    settings: Settings,
  ): Promise<DocumentTurn> {
    const { decision, documents, knowledgeBaseIds } = await this.decide(user, conversation, model, messages, settings);
    if (decision.mode === 'none')
      return { mode: 'none', tokens: 0, credits: 0, citations: [], placement: NO_DOCUMENTS };

    const whole = decision.whole ? await this.wholeTexts(documents) : [];
    const question = messages[messages.length - 1]?.content ?? '';
    const passages = await this.passages(decision, knowledgeBaseIds, question);
    const tokens = decision.wholeTokens + passages.reduce((sum, p) => sum + p.tokens, 0);
    return {
      mode: decision.mode,
      tokens,
      credits: documentCredits(tokens, model.credits_per_1k_document_tokens),
      citations: citationsOf(whole, passages),
      placement: { whole: new Map(whole.map((d) => [d.id, d.block])), passages },
    };
  }

  /**
   * The same decision without a question to search for: passages are estimated at the
   * usual number of them, of the mean size of these documents' passages.
   */
  async estimate(
    user: UserRow,
    conversation: ConversationRow,
    model: AiModelRow,
    messages: readonly TurnMessage[],
    settings: Settings,
  ): Promise<DocumentEstimate> {
    const { decision, knowledgeBaseIds } = await this.decide(user, conversation, model, messages, settings);
    let tokens = decision.wholeTokens;
    if (decision.searchedFileIds.length > 0 || knowledgeBaseIds.length > 0) {
      const mean = await this.repo.meanPassageTokens(decision.searchedFileIds, knowledgeBaseIds);
      tokens += estimatedPassageTokens(mean, decision.budget - decision.wholeTokens);
    }
    return { mode: decision.mode, tokens, credits: documentCredits(tokens, model.credits_per_1k_document_tokens) };
  }

  private async decide(
    user: UserRow,
    conversation: ConversationRow,
    model: AiModelRow,
    messages: readonly TurnMessage[],
    settings: Settings,
  ): Promise<Decided> {
    const [documents, knowledgeBaseIds] = await Promise.all([
      this.documentsInPlay(user, messages),
      this.knowledgeBases(user, conversation),
    ]);
    // Counted only when there is something to fit: a turn without documents pays nothing here.
    const count = this.sources.countTokens ?? estimateTokens;
    const inPlay = documents.length > 0 || knowledgeBaseIds.length > 0;
    const historyTokens = inPlay ? messages.reduce((sum, m) => sum + count(m.content), 0) : 0;
    const decision = planDocuments({
      documents,
      knowledgeBaseIds,
      historyTokens,
      contextWindow: model.context_window,
      fullContextShare: settings.files.full_context_share,
    });
    return { decision, documents, knowledgeBaseIds };
  }

  /** The sender's ready documents attached along the branch, each once, in the order first attached. */
  private async documentsInPlay(user: UserRow, messages: readonly TurnMessage[]): Promise<PlannedDocument[]> {
    const ids = [...new Set(messages.flatMap((m) => (m.role === 'user' ? (m.documents ?? []) : [])))];
    if (ids.length === 0) return [];
    const rows = new Map((await this.files.findOwned(ids, user.id)).map((f) => [f.id, f]));
    return ids.flatMap((id) => {
      const f = rows.get(id);
      if (!f || f.kind !== 'document' || f.status !== 'ready') return [];
      return [{ id, name: f.original_name, tokens: f.tokens ?? 0, pages: f.pages }];
    });
  }

  /** The conversation's knowledge bases that the sender may still read. */
  private async knowledgeBases(user: UserRow, conversation: ConversationRow): Promise<number[]> {
    const attached = (await this.knowledgeOf.idsOf([conversation.id])).get(conversation.id) ?? [];
    if (attached.length === 0 || !this.sources.knowledge) return attached;
    return this.sources.knowledge.readableKnowledgeBaseIds(user.id, attached);
  }

  private async wholeTexts(documents: readonly PlannedDocument[]) {
    const pages = await this.sources.text.pagesOfMany(documents.map((d) => d.id));
    return documents.map((d) => {
      const own = pages.get(d.id) ?? [];
      return {
        id: d.id,
        name: d.name,
        text: own.map((p) => p.text).join('\n\n'),
        block: wholeDocumentBlock(d.name, own),
      };
    });
  }

  private async passages(decision: DocumentPlanDecision, knowledgeBaseIds: readonly number[], question: string) {
    const retrieval = this.sources.retrieval;
    if (!retrieval || !question.trim()) return [];
    if (decision.searchedFileIds.length === 0 && knowledgeBaseIds.length === 0) return [];
    const found = await retrieval.search({
      fileIds: decision.searchedFileIds,
      knowledgeBaseIds,
      query: question,
      limit: DOCUMENT_LIMITS.retrievalPassages,
    });
    return passagesWithin(found, decision.budget - decision.wholeTokens);
  }
}

/**
 * Passages of `mean` tokens as `passagesWithin` would take them: as many as fit in what is
 * left, at least one, at most the usual number.
 */
export function estimatedPassageTokens(mean: number, left: number): number {
  if (mean <= 0) return 0;
  const count = Math.min(DOCUMENT_LIMITS.retrievalPassages, Math.max(1, Math.floor(left / mean)));
  return count * mean;
}
