import type { KnowledgeBase, KnowledgeDocument } from '@aiplatform/contracts';
import type { Actor } from '../../policies/actor.js';
import { knowledgeBaseAbilities } from '../../policies/knowledge-bases.js';
import { presentFile } from './file.presenter.js';
import type { KnowledgeBaseRow, KnowledgeDocumentRow } from './knowledge-bases.repo.js';

export function toKnowledgeBase(actor: Actor, kb: KnowledgeBaseRow): KnowledgeBase {
  return {
    id: kb.id,
    name: kb.name,
    description: kb.description,
    scope: kb.scope,
    group_id: kb.scope === 'group' ? kb.group_id : null,
    document_count: kb.document_count,
    abilities: knowledgeBaseAbilities(actor, kb),
    created_at: kb.created_at,
    updated_at: kb.updated_at,
  };
}

export function toKnowledgeDocument(f: KnowledgeDocumentRow): KnowledgeDocument {
  return { ...presentFile(f), added_at: f.added_at };
}
