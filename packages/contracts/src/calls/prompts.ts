import { z } from 'zod';
import {
  CreatePromptBodySchema,
  PromptListQuerySchema,
  PromptTemplateSchema,
  PromptVersionSchema,
  UpdatePromptBodySchema,
} from '../prompts.js';
import type { CallSpec } from './spec.js';

/**
 * Prompt templates. Every chatting account reads the system's, its group's and its own;
 * a group's are changed by its administrators (and super administrators), the system's by
 * super administrators. Someone else's personal template, or another group's, is not
 * found (404); a template the caller reads but may not change answers 403 to a change.
 */
export const PROMPT_CALLS = {
  listPrompts: {
    method: 'GET',
    path: '/prompts',
    access: 'chat.use',
    query: PromptListQuerySchema,
    response: z.array(PromptTemplateSchema),
  },
  createPrompt: {
    method: 'POST',
    path: '/prompts',
    access: 'chat.use',
    body: CreatePromptBodySchema,
    response: PromptTemplateSchema,
    status: 201,
  },
  updatePrompt: {
    method: 'PUT',
    path: '/prompts/:id',
    access: 'chat.use',
    body: UpdatePromptBodySchema,
    response: PromptTemplateSchema,
  },
  deletePrompt: {
    method: 'DELETE',
    path: '/prompts/:id',
    access: 'chat.use',
    response: z.object({ deleted: z.boolean() }),
  },
  /** Earlier versions, newest first; restoring one is an update with its text. */
  listPromptVersions: {
    method: 'GET',
    path: '/prompts/:id/versions',
    access: 'chat.use',
    response: z.array(PromptVersionSchema),
  },
} as const satisfies Record<string, CallSpec>;
