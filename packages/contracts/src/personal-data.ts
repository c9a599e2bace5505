import { z } from 'zod';
import { ReasonSchema } from './admin/admin-credits.js';

/*
 * A person's data: the ZIP they (or a super administrator, with a reason) download, and the
 * erasure of an account. Rules in docs/governance.md.
 */

/** GET /admin/users/{id}/export: why a super administrator takes a copy of someone's data. */
export const DataExportQuerySchema = z.object({ reason: ReasonSchema });
export type DataExportQuery = z.infer<typeof DataExportQuerySchema>;

/** POST /admin/users/{id}/erase. */
export const EraseUserBodySchema = z.object({ reason: ReasonSchema });
export type EraseUserBody = z.infer<typeof EraseUserBodySchema>;

/** What an erasure removed. */
export const EraseUserResultSchema = z.object({
  id: z.number(),
  conversations: z.number(),
  files: z.number(),
});
export type EraseUserResult = z.infer<typeof EraseUserResultSchema>;

/** The entries of an export, at the top of the ZIP (conversations and files are folders). */
export const DATA_EXPORT_ENTRIES = {
  profile: 'profile.json',
  ledger: 'ledger.csv',
  shareLinks: 'share-links.json',
  promptTemplates: 'prompt-templates.json',
  knowledgeBases: 'knowledge-bases.json',
  conversations: 'conversations/',
  files: 'files/',
} as const;
