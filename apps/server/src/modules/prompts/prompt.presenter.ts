import { type PromptTemplate, type PromptVersion, promptVariables } from '@aiplatform/contracts';
import type { Selectable } from 'kysely';
import type { PromptTemplatesTable } from '../../db/types.js';
import type { Actor } from '../../policies/actor.js';
import { promptAbilities } from '../../policies/prompts.js';
import type { PromptRow, PromptVersionRow } from './prompts.repo.js';

/** A template as the caller sees it, with its variables parsed so no client parses them again. */
export function toPromptTemplate(actor: Actor, row: PromptRow): PromptTemplate {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    scope: row.scope,
    group_id: row.group_id,
    group_name: row.group_name,
    variables: promptVariables(row.content),
    version: row.version,
    abilities: promptAbilities(actor, row),
    updated_by: row.updated_by_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toPromptVersion(row: PromptVersionRow): PromptVersion {
  return {
    version: row.version,
    title: row.title,
    content: row.content,
    edited_by: row.edited_by_name,
    edited_at: row.edited_at,
  };
}

/** What an audit row records of a shared template. */
export function promptSnapshot(row: Selectable<PromptTemplatesTable>): Record<string, unknown> {
  return { title: row.title, content: row.content, scope: row.scope, group_id: row.group_id };
}
