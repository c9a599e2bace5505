import type { CreatePromptBody, PromptListQuery, UpdatePromptBody } from '@aiplatform/contracts';
import { call } from './call';

/** Prompt templates: the picker's list, the management page's changes and versions. */
export const promptsApi = {
  list: (query: PromptListQuery = {}) => call('listPrompts', { query }),
  create: (body: CreatePromptBody) => call('createPrompt', { body }),
  update: (id: number, body: UpdatePromptBody) => call('updatePrompt', { params: { id }, body }),
  remove: (id: number) => call('deletePrompt', { params: { id } }),
  versions: (id: number) => call('listPromptVersions', { params: { id } }),
};

/** Cache keys: every change refreshes everything under `all`. */
export const promptKeys = {
  all: ['prompts'] as const,
  list: (query: PromptListQuery) => ['prompts', 'list', query] as const,
  versions: (id: number) => ['prompts', 'versions', id] as const,
};
