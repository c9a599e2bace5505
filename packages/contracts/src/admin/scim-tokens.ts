import { z } from 'zod';

/** A SCIM bearer token as administrators see it: never the token itself, which is shown once. */
export const ScimTokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  created_by: z.number().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ScimToken = z.infer<typeof ScimTokenSchema>;

export const CreateScimTokenBodySchema = z.object({
  name: z
    .string({ error: 'validation.scimTokenName.required' })
    .trim()
    .min(1, 'validation.scimTokenName.required')
    .max(100, 'validation.scimTokenName.max'),
});
export type CreateScimTokenBody = z.infer<typeof CreateScimTokenBodySchema>;

/** The answer of POST /admin/scim-tokens: the only time the token is ever sent. */
export const CreatedScimTokenSchema = z.object({ id: z.number(), name: z.string(), token: z.string() });
export type CreatedScimToken = z.infer<typeof CreatedScimTokenSchema>;
