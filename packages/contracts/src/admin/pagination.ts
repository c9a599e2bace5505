import { z } from 'zod';

/** The one pagination shape every list answers with, beside `data` (API contract: lists). */
export const PaginationSchema = z.object({
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  totalPages: z.number(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});

/** Ids are positive 32-bit integers in both databases; a larger number names nothing. */
export const ROW_ID_MAX = 2_147_483_647;

/** Largest page an admin list serves; a larger `limit` is clamped, never refused. */
export const ADMIN_PAGE_MAX = 100;

/** `page` and `limit` of every admin list: defaults 1 and 20, `limit` clamped to 100. */
export const AdminPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .transform((n) => Math.min(n, ADMIN_PAGE_MAX))
    .catch(20)
    .default(20),
});
