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

/**
 * A whole number in a query string within [min, max]. Anything else (out of range, a
 * fraction, not a number) is refused with 400 naming the field: a number a client got wrong
 * must not quietly answer something else.
 */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** An id in a query string (a group, a user): 1 to ROW_ID_MAX. */
export const QueryRowIdSchema = queryInt(1, ROW_ID_MAX);

/** `page` and `limit` of every admin list: defaults 1 and 20, `limit` clamped to 100. */
export const AdminPageQuerySchema = z.object({
  page: queryInt(1, 1_000_000).default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .transform((n) => Math.min(n, ADMIN_PAGE_MAX))
    .default(20),
});
