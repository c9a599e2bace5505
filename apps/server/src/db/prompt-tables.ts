import type { PromptScope } from '@aiplatform/contracts';
import type { Generated } from 'kysely';

/* Prompt templates and their earlier versions (migration 0031); gathered into `Database` in types.ts. */

export interface PromptTemplatesTable {
  id: Generated<number>;
  title: string;
  content: string;
  scope: PromptScope;
  /** The owner of a personal template; null for a group's or the system's. */
  owner_id: number | null;
  /** The group of a `group` template; null otherwise. */
  group_id: number | null;
  version: Generated<number>;
  created_by: number | null;
  updated_by: number | null;
  created_at: string;
  updated_at: string;
}

/** What a template said before an edit: version `version`, written by `edited_by` at `edited_at`. */
export interface PromptTemplateVersionsTable {
  id: Generated<number>;
  template_id: number;
  version: number;
  title: string;
  content: string;
  edited_by: number | null;
  edited_at: string;
}

/** These tables, as `Database` in types.ts gathers them. */
export interface PromptTables {
  prompt_templates: PromptTemplatesTable;
  prompt_template_versions: PromptTemplateVersionsTable;
}
