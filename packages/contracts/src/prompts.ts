import { z } from 'zod';

/**
 * Prompt templates: saved texts a person drops into the chat composer, with `{{name}}`
 * placeholders filled in a small form first. A template is personal (its owner's), a
 * group's (read by the group, curated by its administrators) or the system's (read by
 * everyone, curated by super administrators).
 */
export const PROMPT_SCOPES = ['personal', 'group', 'system'] as const;
export type PromptScope = (typeof PROMPT_SCOPES)[number];

export const PROMPT_LIMITS = {
  titleMax: 100,
  contentMax: 10_000,
  /** Distinct variables one template may have: each is a field of the form. */
  variablesMax: 20,
  /** Characters of one variable's name. */
  variableNameMax: 40,
  /** Personal templates one account may keep (409 PROMPT_LIMIT_REACHED beyond it). */
  personalPerUser: 200,
  /** Templates of one group, and system templates (409 PROMPT_LIMIT_REACHED beyond it). */
  sharedPerScope: 500,
  /** Earlier versions kept per template; older ones are dropped on the next edit. */
  versionsKept: 50,
  searchMax: 100,
} as const;

/*
 * A variable is `{{name}}`, spaces inside the braces allowed. A name is letters of any
 * script (so Chinese names work), digits and underscores; anything else between double
 * braces is left as plain text, so a template can still show code that uses braces.
 */
const VARIABLE = /\{\{\s*([\p{L}\p{N}_]+)\s*\}\}/gu;

/** The template's variables, each once, in the order they first appear. */
export function promptVariables(content: string): string[] {
  const names: string[] = [];
  for (const match of content.matchAll(VARIABLE)) {
    const name = match[1] ?? '';
    if (name.length <= PROMPT_LIMITS.variableNameMax && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The text with every variable replaced by its value (a variable without one stays as written). */
export function fillPromptTemplate(content: string, values: Readonly<Record<string, string>>): string {
  return content.replace(VARIABLE, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? (values[name] ?? '') : whole,
  );
}

const Title = z
  .string({ error: 'validation.prompt.title' })
  .trim()
  .min(1, 'validation.prompt.title')
  .max(PROMPT_LIMITS.titleMax, 'validation.prompt.title');
const Content = z
  .string({ error: 'validation.prompt.content' })
  .refine((s) => s.trim().length > 0, 'validation.prompt.content')
  .refine((s) => s.length <= PROMPT_LIMITS.contentMax, 'validation.prompt.content')
  .refine((s) => promptVariables(s).length <= PROMPT_LIMITS.variablesMax, 'validation.prompt.variables');
const Scope = z.enum(PROMPT_SCOPES, { error: 'validation.prompt.scope' });

/**
 * POST /prompts. A `group` template belongs to the creator's group unless whoever manages
 * other groups names one with `group_id`.
 */
export const CreatePromptBodySchema = z.object({
  title: Title,
  content: Content,
  scope: Scope.default('personal'),
  group_id: z.number({ error: 'validation.prompt.group' }).int().min(1).max(2_147_483_647).optional(),
});
export type CreatePromptBody = z.infer<typeof CreatePromptBodySchema>;

/** PUT /prompts/:id: a new version; the scope does not change (make a new template instead). */
export const UpdatePromptBodySchema = z.object({ title: Title, content: Content });
export type UpdatePromptBody = z.infer<typeof UpdatePromptBodySchema>;

export const PromptListQuerySchema = z.object({
  search: z.string().trim().max(PROMPT_LIMITS.searchMax, 'validation.search.max').optional(),
  scope: Scope.optional(),
});
export type PromptListQuery = z.input<typeof PromptListQuerySchema>;

export const PromptTemplateSchema = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  scope: z.enum(PROMPT_SCOPES),
  /** The group of a `group` template, and its name; null otherwise. */
  group_id: z.number().nullable(),
  group_name: z.string().nullable(),
  /** The `{{variables}}` of the content, each once, in order: one form field each. */
  variables: z.array(z.string()),
  /** 1 when made, one more on every edit. */
  version: z.number(),
  /** What the caller may do: members read a group's, its administrators change it. */
  abilities: z.object({ update: z.boolean(), delete: z.boolean() }),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PromptTemplate = z.infer<typeof PromptTemplateSchema>;

/** An earlier version of a template: what it said, who wrote it, and when. */
export const PromptVersionSchema = z.object({
  version: z.number(),
  title: z.string(),
  content: z.string(),
  edited_by: z.string().nullable(),
  edited_at: z.string(),
});
export type PromptVersion = z.infer<typeof PromptVersionSchema>;
